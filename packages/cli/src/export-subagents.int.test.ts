import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJsonlPersistence, persistenceWriter } from '@strand/persistence';
import { Session, SessionId, newSessionHeader, type SessionEventInput } from '@strand/session';
import { strand } from './testing/strand-process.js';

/**
 * `strand export --to` of a session with a subagent child, in a real process of the bundled CLI:
 * Claude Code gets the child as its own sidechain file (listed in `children`) and `strand import
 * claude-code` reads the two back as parent and child; Codex names the child as left out.
 */
let root: string;
let data: string;
const AT = Date.parse('2026-11-02T12:00:00Z');

async function stored(
  persistence: Awaited<ReturnType<typeof openJsonlPersistence>>,
  header: ReturnType<typeof newSessionHeader>,
  events: readonly Omit<SessionEventInput, 'time'>[],
): Promise<void> {
  const { incarnation } = await persistence.create({ header });
  const session = new Session({ header, incarnation, writer: persistenceWriter(persistence, header.id) });
  await session.append(events.map((event) => ({ ...event, time: AT })));
}

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'strand-export-subagents-'));
  data = path.join(root, 'data');
  const persistence = await openJsonlPersistence({ root: data });
  await stored(persistence, newSessionHeader({ id: SessionId('beta'), createdAt: AT, cwd: '/work/shop' }), [
    { type: 'turn/start', data: {} },
    { type: 'user/message', data: { content: 'Count the files with a helper', author: 'human' } },
    {
      type: 'tool/call',
      data: { callId: 'c1', name: 'spawn_agent', arguments: '{"task":"Count the files"}' },
    },
    {
      type: 'tool/result',
      data: { callId: 'c1', content: 'Spawned one-shot agent (id beta-kid).\n2 files.' },
    },
    { type: 'assistant/message', data: { content: 'There are 2 files.' } },
    { type: 'turn/end', data: { reason: 'completed' } },
  ]);
  await stored(
    persistence,
    newSessionHeader({
      id: SessionId('beta-kid'),
      createdAt: AT,
      cwd: '/work/shop',
      parentSession: SessionId('beta'),
      origin: 'subagent',
      delegationDepth: 1,
    }),
    [
      { type: 'subagent/descriptor', data: { version: 2, mode: 'one-shot', label: 'counter' } },
      { type: 'turn/start', data: {} },
      { type: 'user/message', data: { content: 'Count the files', author: 'agent' } },
      { type: 'assistant/message', data: { content: '2 files.' } },
      { type: 'turn/end', data: { reason: 'completed' } },
    ],
  );
  await persistence.close();
}, 120_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('strand export --to, a session with a subagent', () => {
  it('claude-code: the child as a sidechain in children, imported back as the parent and its child', async () => {
    const home = path.join(root, 'home');
    const run = strand('export', 'beta', '--to', 'claude-code', '--home', home, '--json', '--data', data);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout) as { path: string; resumeId: string; children: string[] };
    expect(out.children).toHaveLength(1);
    expect(path.relative(path.dirname(out.path), out.children[0]!)).toMatch(
      new RegExp(`^${out.resumeId}/subagents/agent-a[0-9a-f]{16}\\.jsonl$`),
    );
    expect(existsSync(out.children[0]!)).toBe(true);

    const back = path.join(root, 'back');
    const imported = strand('import', 'claude-code', path.join(home, '.claude', 'projects'), '--data', back);
    expect(imported.code).toBe(0);
    const persistence = await openJsonlPersistence({ root: back });
    try {
      const headers = (await persistence.list()).map((s) => s.header);
      const main = headers.filter((h) => h.parentSession === undefined);
      expect(main).toHaveLength(1);
      const kids = headers.filter((h) => h.parentSession === main[0]!.id);
      expect(kids).toHaveLength(1);
      expect(kids[0]!.origin).toBe('subagent');
      const kid = await persistence.inspect(kids[0]!.id);
      expect(kid.events[0]).toMatchObject({ type: 'subagent/descriptor', data: { label: 'counter' } });
      expect(kid.events.filter((e) => e.type === 'user/message').map((e) => e.data)).toEqual([
        { content: 'Count the files', author: 'agent' },
      ]);
    } finally {
      await persistence.close();
    }
  });

  it('codex: no child format, the child named in the left-out line', () => {
    const run = strand(
      'export',
      'beta',
      '--to',
      'codex',
      '--home',
      path.join(root, 'home-codex'),
      '--json',
      '--data',
      data,
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('strand: 1 × subagent not carried (Codex has no child format): beta-kid\n');
    expect((JSON.parse(run.stdout) as { children: unknown[] }).children).toEqual([]);
  });
});
