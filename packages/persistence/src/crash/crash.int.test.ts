import { spawn } from 'node:child_process';
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

const here = path.dirname(fileURLToPath(import.meta.url));
const child = path.join(here, 'crash-writer.child.ts');
const id = SessionId('crash-session');
const roots: string[] = [];

afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** Runs the writer until it has acknowledged something, SIGKILLs it after a random delay, returns the highest acked seq. */
function runAndKill(root: string, backend: string, killAfterMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', child, root, backend], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let timer: NodeJS.Timeout | undefined;
    proc.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (timer === undefined && out.includes('ready\n'))
        timer = setTimeout(() => proc.kill('SIGKILL'), killAfterMs);
    });
    proc.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    proc.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL')
        return reject(new Error(`writer exited on its own (code ${String(code)}): ${err}`));
      const acks = [...out.matchAll(/^ack (\d+)$/gm)].map((m) => Number(m[1]));
      resolve(acks.length === 0 ? -1 : Math.max(...acks));
    });
  });
}

/** Verifies one round; returns how many repair closers the crash left to write. */
async function verifyRound(persistence: SessionPersistence, acked: number): Promise<number> {
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
): void {
  it(`a SIGKILLed ${backend} writer loses no acknowledged append over ${rounds} rounds, and the log repairs cleanly`, async () => {
    const root = mkdtempSync(path.join(tmpdir(), `strand-crash-${backend}-`));
    roots.push(root);
    let totalAcked = 0;
    let repairedRounds = 0;
    // The kill delays are the run's only random choice: printed, and replayed from STRAND_TEST_SEED.
    const killDelays = seededIntegers(`${backend} kill delays (ms)`, { min: 5, max: 64 }, rounds);
    for (const killAfterMs of killDelays) {
      const acked = await runAndKill(root, backend, killAfterMs);
      totalAcked = Math.max(totalAcked, acked);
      const persistence = await open(root);
      try {
        if ((await verifyRound(persistence, acked)) > 0) repairedRounds++;
      } finally {
        await persistence.close();
      }
    }
    expect(totalAcked).toBeGreaterThan(rounds); // the writer really wrote between kills
    expect(repairedRounds).toBeGreaterThan(0); // and was killed mid-turn at least once
  }, 600_000);
}

describe('crash safety (JSONL + zstd)', () => {
  crashRounds('jsonl', Number(process.env.STRAND_CRASH_ROUNDS ?? 50), (root) =>
    openJsonlPersistence({ root }),
  );
});

describe('crash safety (SQLite)', () => {
  crashRounds('sqlite', Number(process.env.STRAND_CRASH_ROUNDS_SQLITE ?? 20), (root) =>
    Promise.resolve(openSqlitePersistence({ path: path.join(root, 'strand.db') })),
  );
});
