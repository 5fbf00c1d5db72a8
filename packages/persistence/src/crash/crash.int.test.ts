import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionId, checkLogInvariants } from '@strand/session';
import { seededIntegers } from '@strand/test-support';
import { openJsonlPersistence } from '../jsonl/jsonl-persistence.js';
import { openSqlitePersistence } from '../sqlite/sqlite-persistence.js';
import type { SessionPersistence } from '../types.js';
import { runUntilKilled } from './kill-child.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const child = path.join(here, 'crash-writer.child.ts');
const baseId = 'crash-session';
const roots: string[] = [];

afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** The ids the writer uses for `count` sessions (see crash-writer.child.ts). */
function sessionIds(count: number): SessionId[] {
  return count === 1
    ? [SessionId(baseId)]
    : Array.from({ length: count }, (_, i) => SessionId(`${baseId}-${i}`));
}

interface Killed {
  /** The highest acked seq per session id (absent: nothing acked). */
  readonly acked: ReadonlyMap<string, number>;
  /** Commits the writer reported as holding several sessions' appends. */
  readonly groups: number;
}

/** Runs the writer until its first acknowledged append, SIGKILLs it after a delay, returns what it acknowledged. */
async function runAndKill(
  root: string,
  backend: string,
  killAfterMs: number,
  sessions: number,
): Promise<Killed> {
  // Armed at the first acknowledged append, so every round kills a writer that is writing.
  const out = await runUntilKilled(child, [root, backend, baseId, String(sessions)], killAfterMs, /^ack /m);
  const acked = new Map<string, number>();
  for (const [, id, seq] of out.matchAll(/^ack (\S+) (\d+)$/gm)) {
    acked.set(id!, Math.max(acked.get(id!) ?? -1, Number(seq)));
  }
  return { acked, groups: out.match(/^group \d+$/gm)?.length ?? 0 };
}

/** Verifies one session after a round; returns how many repair closers the crash left to write. */
async function verifyRound(persistence: SessionPersistence, id: SessionId, acked: number): Promise<number> {
  // Killed before the first write was acknowledged (the atomic first write was still in flight):
  // then no session at all is the one correct outcome besides a whole, readable one.
  if (acked < 0 && (await persistence.revisionOf(id)) === undefined) {
    expect((await persistence.list()).map((s) => s.header.id)).not.toContain(id);
    return 0;
  }
  const log = await persistence.inspect(id);
  // No acknowledged append is lost.
  expect(log.events.length - 1).toBeGreaterThanOrEqual(acked);
  expect(checkLogInvariants(log.events)).toEqual([]);
  for (const e of log.events) {
    if (e.type === 'test/payload') expect((e.data as { seq: number }).seq).toBe(e.seq);
  }
  // The repairs a non-mutating inspect shows are exactly what a repairing load writes.
  const loaded = await persistence.load(id);
  expect(loaded.events).toEqual([...log.events, ...log.repairs]);
  expect(checkLogInvariants(loaded.events, { closedTurns: true })).toEqual([]);
  expect((await persistence.inspect(id)).repairs).toEqual([]);
  return log.repairs.length;
}

export function crashRounds(
  backend: string,
  rounds: number,
  open: (root: string) => Promise<SessionPersistence>,
  { sessions = 1, grouped = false }: { sessions?: number; grouped?: boolean } = {},
): void {
  const what = sessions === 1 ? `${backend} writer` : `${backend} writer of ${sessions} sessions at once`;
  it(`a SIGKILLed ${what} loses no acknowledged append over ${rounds} rounds, and the log repairs cleanly`, async () => {
    const root = mkdtempSync(path.join(tmpdir(), `strand-crash-${backend}-`));
    roots.push(root);
    let totalAcked = 0;
    let repairedRounds = 0;
    let groups = 0;
    // The kill delays are the run's only random choice: printed, and replayed from STRAND_TEST_SEED.
    const killDelays = seededIntegers(
      `${sessions === 1 ? backend : what} kill delays (ms)`,
      { min: 5, max: 64 },
      rounds,
    );
    for (const killAfterMs of killDelays) {
      const killed = await runAndKill(root, backend, killAfterMs, sessions);
      groups += killed.groups;
      const persistence = await open(root);
      try {
        let repaired = 0;
        for (const id of sessionIds(sessions)) {
          const acked = killed.acked.get(id) ?? -1;
          totalAcked = Math.max(totalAcked, acked);
          repaired += await verifyRound(persistence, id, acked);
        }
        if (repaired > 0) repairedRounds++;
      } finally {
        await persistence.close();
      }
    }
    expect(totalAcked).toBeGreaterThan(rounds); // the writer really wrote between kills
    expect(repairedRounds).toBeGreaterThan(0); // and was killed mid-turn at least once
    // The kills landed among commits that each held several sessions' appends.
    if (grouped) expect(groups).toBeGreaterThan(0);
  }, 600_000);
}

describe('crash safety (JSONL + zstd)', () => {
  crashRounds('jsonl', Number(process.env.STRAND_CRASH_ROUNDS ?? 50), (root) =>
    openJsonlPersistence({ root }),
  );
});

describe('crash safety of parallel syncs (JSONL + zstd, 8 sessions)', () => {
  // Eight files' fdatasyncs in flight at once: a kill among them loses no acknowledged append.
  crashRounds(
    'jsonl',
    Number(process.env.STRAND_CRASH_ROUNDS_GROUP ?? 10),
    (root) => openJsonlPersistence({ root }),
    {
      sessions: 8,
    },
  );
});

describe('crash safety (SQLite)', () => {
  crashRounds('sqlite', Number(process.env.STRAND_CRASH_ROUNDS_SQLITE ?? 20), (root) =>
    Promise.resolve(openSqlitePersistence({ path: path.join(root, 'strand.db') })),
  );
});

describe('crash safety of grouped commits (SQLite, 8 sessions)', () => {
  crashRounds(
    'sqlite',
    Number(process.env.STRAND_CRASH_ROUNDS_GROUP ?? 10),
    (root) => Promise.resolve(openSqlitePersistence({ path: path.join(root, 'strand.db') })),
    { sessions: 8, grouped: true },
  );
});
