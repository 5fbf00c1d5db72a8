import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, strandAsync } from './testing/strand-process.js';

/**
 * `strand serve` refusing what cannot work, in real processes of the bundled CLI: one `strand:`
 * line, a stable exit code, and nothing written — the data folder it was given is not created.
 */
let root: string;
/** A data folder that must still not exist once the refused command has exited. */
let unborn: string;

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'strand-serve-refusals-'));
  unborn = path.join(root, 'never-created');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function oneLine(stderr: string): string {
  const lines = stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  return lines[0]!;
}

describe('strand serve on a port another process listens on', () => {
  let busy: Server;
  let port: number;

  beforeAll(async () => {
    busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    ({ port } = busy.address() as { port: number });
  });
  afterAll(() => new Promise<void>((resolve) => busy.close(() => resolve())));

  it('says the port is in use on one line, exits 1, and creates no data folder', async () => {
    const run = await strandAsync(['serve', '--data', unborn, '--port', String(port)]);
    expect(oneLine(run.stderr)).toBe(
      `strand: port ${port} on 127.0.0.1 is in use (another strand serve?): pass another --port, or --port 0 for any free one`,
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(existsSync(unborn)).toBe(false);
  });
});

describe('strand serve on the port of the host that serves its folder', () => {
  it('is refused by the folder lock, which names that host, not by the port', async () => {
    const data = path.join(root, 'served');
    const first = await startServe(data);
    try {
      const port = new URL(first.url).port;
      const second = await strandAsync(['serve', '--data', data, '--port', port]);
      expect(oneLine(second.stderr)).toContain(
        `is in use by \`strand serve\` (pid ${first.process.pid}, ${first.url})`,
      );
      expect(second.code).toBe(1);
    } finally {
      first.process.kill('SIGINT');
      await first.process.exited;
    }
  });
});

describe('strand serve usage errors exit 2 before the data folder is touched', () => {
  it.each([
    [
      ['--port', 'notaport'],
      /^strand: option '--port <port>' argument 'notaport' is invalid\. expected an integer from 0 to 65535/,
    ],
    [['--port', '65536'], /expected an integer from 0 to 65535/],
    [['--cold-reads', '0'], /--cold-reads <n>.*expected an integer from 1 to 64/],
    [
      ['--require-token', '--token', 'short'],
      /^strand: --token must be at least 16 characters with --require-token$/,
    ],
    [
      ['--host', '0.0.0.0', '--token', 'short'],
      /^strand: --token must be at least 16 characters with --host 0\.0\.0\.0 \(not loopback\)$/,
    ],
  ])('strand serve %j', async (args, message) => {
    const run = await strandAsync(['serve', '--data', unborn, ...args]);
    expect(oneLine(run.stderr)).toMatch(message);
    expect(run.stderr).not.toMatch(/requireToken/);
    expect(run.code).toBe(2);
    expect(existsSync(unborn)).toBe(false);
  });
});
