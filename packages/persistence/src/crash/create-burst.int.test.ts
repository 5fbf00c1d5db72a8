import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionId, checkLogInvariants } from '@strand/session';
import { closedTurn, seededIntegers } from '@strand/test-support';
import { openJsonlPersistence } from '../jsonl/jsonl-persistence.js';
import { openSqlitePersistence } from '../sqlite/sqlite-persistence.js';
import type { SessionPersistence } from '../types.js';
import { runUntilKilled } from './kill-child.js';

const child = path.join(path.dirname(fileURLToPath(import.meta.url)), 'create-burst.child.ts');
const roots: string[] = [];

afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/**
 * A stored session of the burst is whole: an odd-numbered one is its header alone (materialized
 * empty), an even-numbered one its header and exactly the closed turn that named it.
 */
async function expectWhole(persistence: SessionPersistence, id: string): Promise<void> {
  const log = await persistence.inspect(SessionId(id));
  expect(log.header.id).toBe(id);
  expect(log.tornTail).toBe(false);
  if (Number(/-(\d+)$/.exec(id)![1]) % 2 === 1) {
    expect(log.events).toEqual([]);
    return;
  }
  const turn = closedTurn(`prompt of ${id}`, `call-${id}`);
  expect(log.events.map((e) => [e.type, e.data])).toEqual(turn.map((e) => [e.type, e.data]));
  expect(checkLogInvariants(log.events, { closedTurns: true })).toEqual([]);
}

function burstRounds(
  backend: string,
  rounds: number,
  open: (root: string, onSkippedFile: (file: string) => void) => Promise<SessionPersistence>,
): void {
  it(`a SIGKILLed burst of concurrent ${backend} creates: every resolved create is stored whole, none half-made, over ${rounds} rounds`, async () => {
    const root = mkdtempSync(path.join(tmpdir(), `strand-create-burst-${backend}-`));
    roots.push(root);
    let created = 0;
    const killDelays = seededIntegers(
      `${backend} create-burst kill delays (ms)`,
      { min: 5, max: 120 },
      rounds,
    );
    for (const [round, killAfterMs] of killDelays.entries()) {
      const out = await runUntilKilled(child, [root, backend, String(round)], killAfterMs);
      const resolved = new Set([...out.matchAll(/^created (\S+)$/gm)].map((m) => m[1]!));
      created += resolved.size;
      const skipped: string[] = [];
      const persistence = await open(root, (file) => skipped.push(file));
      try {
        // This round's sessions (earlier rounds' were checked after their own kill).
        const stored = new Set(
          (await persistence.list())
            .map((s) => s.header.id as string)
            .filter((id) => id.startsWith(`r${round}-`)),
        );
        expect(skipped).toEqual([]); // no unreadable file: no half-made session
        // Every create that resolved survived the kill.
        for (const id of resolved) expect(stored).toContain(id);
        // Every session stored is whole, resolved or not (a create killed before it resolved may
        // be absent or complete, never corrupt).
        for (const id of stored) {
          await expectWhole(persistence, id);
        }
      } finally {
        await persistence.close();
      }
    }
    expect(created).toBeGreaterThan(rounds); // the bursts really ran between kills
  }, 600_000);
}

describe('crash safety of concurrent creates (JSONL + zstd)', () => {
  burstRounds('jsonl', Number(process.env.STRAND_CRASH_ROUNDS_CREATES ?? 8), (root, onSkippedFile) =>
    openJsonlPersistence({ root, onSkippedFile }),
  );
});

describe('crash safety of concurrent creates (SQLite)', () => {
  burstRounds('sqlite', Number(process.env.STRAND_CRASH_ROUNDS_CREATES ?? 8), (root) =>
    Promise.resolve(openSqlitePersistence({ path: path.join(root, 'strand.db') })),
  );
});
