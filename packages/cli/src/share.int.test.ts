import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openJsonlPersistence } from '@strand/persistence';
import { writeStoredSession } from '@strand/test-support';
import { startServe, strandAsync, type StrandProcess } from './testing/strand-process.js';

/** `strand share` as a real process against a real `strand serve` holding the folder. */
const TOKEN = 'share-test-token-0123456789';
let data: string;
const running: StrandProcess[] = [];

beforeEach(() => {
  data = mkdtempSync(path.join(tmpdir(), 'strand-share-cli-'));
});
afterEach(async () => {
  for (const proc of running.splice(0)) {
    proc.kill('SIGKILL');
    await proc.exited;
  }
  rmSync(data, { recursive: true, force: true });
});

async function storedSession(id: string): Promise<void> {
  const persistence = await openJsonlPersistence({ root: data });
  try {
    await writeStoredSession(persistence, id, 1);
  } finally {
    await persistence.close();
  }
}

describe('strand share', () => {
  it('makes a link on --public-url, lists its grant (no token), revokes it by id; the host logs each step', async () => {
    await storedSession('shared-one');
    const host = await startServe(
      data,
      ['--require-token', '--token', TOKEN, '--public-url', 'https://strand.example/'],
      { STRAND_LOG: 'info' },
    );
    running.push(host.process);

    const made = await strandAsync([
      'share',
      'shared-one',
      '--data',
      data,
      '--expires',
      '1h',
      '--label',
      'for Ana',
      '--json',
    ]);
    expect(made.stderr).toBe('');
    const link = JSON.parse(made.stdout) as {
      url: string;
      grantId: string;
      shareToken: string;
      expiresAt: string;
    };
    expect(link.url).toBe(`https://strand.example/share/${link.shareToken}`);
    expect(link.shareToken).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const listed = await strandAsync(['share', '--list', '--data', data, '--json']);
    const grants = JSON.parse(listed.stdout) as {
      grantId: string;
      status: string;
      label: string;
      createdBy: string;
    }[];
    expect(grants).toEqual([
      expect.objectContaining({ grantId: link.grantId, status: 'active', label: 'for Ana' }),
    ]);
    expect(grants[0]!.createdBy).toMatch(/^cli:\S+$/);
    expect(listed.stdout).not.toContain(link.shareToken);

    const revoked = await strandAsync(['share', '--revoke', link.grantId, '--data', data]);
    expect([revoked.code, revoked.stdout.trim()]).toEqual([0, `revoked ${link.grantId}`]);
    const after = JSON.parse((await strandAsync(['share', '--list', '--data', data, '--json'])).stdout) as {
      status: string;
    }[];
    expect(after.map((g) => g.status)).toEqual(['revoked']);
    expect(host.process.stderr).toContain('share: grant created');
    expect(host.process.stderr).toContain('share: grant revoked');
  });

  it('is refused with one line when no host holds the folder, and on a host that requires no token', async () => {
    const none = await strandAsync(['share', 'x', '--data', data]);
    expect(none.code).toBe(1);
    expect(none.stderr.trim().split('\n')).toEqual([
      `strand: strand share needs a running host: none holds ${data} (start \`strand serve\`, or pass --url and --token)`,
    ]);
    await storedSession('open-one');
    const host = await startServe(data);
    running.push(host.process);
    const open = await strandAsync(['share', 'open-one', '--data', data]);
    expect(open.code).toBe(1);
    expect(open.stderr).toContain('anyone who can reach this host can already read everything');
  });
});
