import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { SessionId, planFork, type Session } from '@strand/session';
import { closedTurn, createWritingSession, testHeader, writingSession } from '@strand/test-support';
import { isPersistenceError, type PersistenceErrorCode } from '../errors.js';
import { StorageFaults, faultySqliteConnect } from '../testing/storage-faults.js';
import { openSqlitePersistence, type SqliteSessionPersistence } from './sqlite-persistence.js';
import type { GroupCommitted } from './write-group.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function freshFile(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'strand-sqlite-group-'));
  dirs.push(dir);
  return path.join(dir, 'strand.db');
}

/** A store whose committed groups are recorded in `commits`, in order. */
function observedStore(
  file: string,
  connect?: (at: string) => Database.Database,
): { p: SqliteSessionPersistence; commits: GroupCommitted[] } {
  const commits: GroupCommitted[] = [];
  const p = openSqlitePersistence({
    path: file,
    onGroupCommitted: (group) => commits.push(group),
    ...(connect === undefined ? {} : { connect }),
  });
  return { p, commits };
}

async function sessions(p: SqliteSessionPersistence, count: number, prefix = 's'): Promise<Session[]> {
  const made: Session[] = [];
  for (let i = 0; i < count; i++) made.push(await createWritingSession(p, testHeader(`${prefix}-${i}`)));
  return made;
}

/** A store whose connection takes injected faults, and four headers `<prefix>-0…3` to write. */
function faultyStoreOfFour(prefix: string): ReturnType<typeof observedStore> & {
  faults: StorageFaults;
  headers: ReturnType<typeof testHeader>[];
} {
  const faults = new StorageFaults();
  const headers = [0, 1, 2, 3].map((i) => testHeader(`${prefix}-${i}`));
  return { ...observedStore(freshFile(), faultySqliteConnect(faults)), faults, headers };
}

/** The stored events of `session` equal its durable cut. */
async function expectStored(p: SqliteSessionPersistence, session: Session): Promise<void> {
  expect((await p.inspect(session.id)).events).toEqual(session.events);
}

/** The persistence error under a rejected append (a `Session` wraps it in `SESSION_WRITE_FAILED`). */
function failedWith(result: PromiseSettledResult<unknown>, code: PersistenceErrorCode): boolean {
  if (result.status !== 'rejected') return false;
  const reason: unknown = result.reason;
  const cause = reason instanceof Error && !isPersistenceError(reason) ? reason.cause : reason;
  return isPersistenceError(cause, code);
}

describe('SQLite group commit', () => {
  it('appends of 50 sessions pending at once go into one commit, each resolving with its own events durable', async () => {
    const file = freshFile();
    const { p, commits } = observedStore(file);
    const all = await sessions(p, 50);
    commits.length = 0;
    await Promise.all(all.map((s, i) => s.append(closedTurn(`prompt ${i}`))));
    expect(commits).toEqual([{ appends: 50, sessions: 50 }]);
    // Another connection sees every append: they were committed, not only held in memory.
    await p.close();
    const { p: reopened } = observedStore(file);
    for (const s of all) await expectStored(reopened, s);
    await reopened.close();
  });

  it('sessions that each await their previous append still share every commit (the bench fan-out)', async () => {
    const { p, commits } = observedStore(freshFile());
    const all = await sessions(p, 12);
    commits.length = 0;
    // Each session appends its next turn only once its previous one resolved, as an agent does.
    await Promise.all(
      all.map(async (s, i) => {
        for (let turn = 0; turn < 4; turn++) await s.append(closedTurn(`prompt ${i}.${turn}`));
      }),
    );
    expect(commits).toEqual(Array.from({ length: 4 }, () => ({ appends: 12, sessions: 12 })));
    for (const s of all) await expectStored(p, s);
    await p.close();
  });

  it('a lone append commits in a group of one, and sequential appends do not wait for company', async () => {
    const { p, commits } = observedStore(freshFile());
    const [s] = await sessions(p, 1);
    await s!.append(closedTurn('one'));
    await s!.append(closedTurn('two'));
    expect(commits).toEqual([
      { appends: 1, sessions: 1 },
      { appends: 1, sessions: 1 },
    ]);
    await expectStored(p, s!);
    await p.close();
  });

  it('a seq conflict fails only that append; the rest of its group commits', async () => {
    const { p, commits } = observedStore(freshFile());
    const all = await sessions(p, 3);
    await Promise.all(all.map((s) => s.append(closedTurn('first'))));
    const stale = (await p.inspect(all[1]!.id)).events.slice(0, 2);
    commits.length = 0;
    const results = await Promise.allSettled([
      all[0]!.append(closedTurn('second')),
      p.append(all[1]!.id, stale),
      all[2]!.append(closedTurn('second')),
    ]);
    expect(commits).toEqual([{ appends: 3, sessions: 3 }]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(failedWith(results[1], 'PERSISTENCE_SEQ_CONFLICT')).toBe(true);
    for (const s of all) await expectStored(p, s);
    await p.close();
  });

  it("a constraint failure inside the group rolls back that session's append alone", async () => {
    const file = freshFile();
    const { p, commits } = observedStore(file);
    const all = await sessions(p, 3);
    await Promise.all(all.map((s) => s.append(closedTurn('first'))));
    // A trigger stands in for any constraint a row can break mid-group.
    const raw = new Database(file);
    raw.exec(
      `CREATE TRIGGER refuse_poison BEFORE INSERT ON events WHEN NEW.data LIKE '%poison%'
       BEGIN SELECT RAISE(ABORT, 'poisoned row'); END`,
    );
    raw.close();
    commits.length = 0;
    const results = await Promise.allSettled([
      all[0]!.append(closedTurn('fine')),
      all[1]!.append(closedTurn('poison')),
      all[2]!.append(closedTurn('fine too')),
    ]);
    expect(commits).toEqual([{ appends: 3, sessions: 3 }]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(failedWith(results[1], 'PERSISTENCE_IO')).toBe(true); // the engine's refusal, typed
    expect(all[1]!.events).toHaveLength(11);
    for (const s of all) await expectStored(p, s);
    await p.close();
  });

  it('a session another store created meanwhile (a stale lazy creation) fails alone in the group', async () => {
    const file = freshFile();
    const { p, commits } = observedStore(file);
    const [a, stale, c] = await sessions(p, 3);
    const other = openSqlitePersistence({ path: file });
    const winner = await createWritingSession(other, testHeader(stale!.id));
    await winner.append(closedTurn('theirs'));
    const results = await Promise.allSettled([a!, stale!, c!].map((s) => s.append(closedTurn('ours'))));
    expect(commits).toEqual([{ appends: 3, sessions: 3 }]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(failedWith(results[1]!, 'PERSISTENCE_EXISTS')).toBe(true);
    await expectStored(p, a!);
    await expectStored(p, c!);
    await expectStored(p, winner);
    await other.close();
    await p.close();
  });

  it('a failed commit fails every append of the group, writes none, and keeps lazy creations pending', async () => {
    const { p, commits, faults, headers } = faultyStoreOfFour('s');
    const incarnations = await Promise.all(
      headers.map(async (header) => (await p.create({ header })).incarnation),
    );
    faults.arm('sync');
    const doomed = headers.map((header, i) => writingSession(p, header, incarnations[i]!));
    const results = await Promise.allSettled(doomed.map((s) => s.append(closedTurn('lost'))));
    expect(results.every((r) => failedWith(r, 'PERSISTENCE_IO'))).toBe(true);
    expect(faults.hitsOf('sync')).toBe(1); // one commit for the whole group
    expect(commits).toEqual([]);
    expect(await p.list()).toEqual([]);
    faults.heal();
    // The sessions stopped, but their creations are still pending: fresh writers start them.
    const fresh = headers.map((header, i) => writingSession(p, header, incarnations[i]!));
    await Promise.all(fresh.map((s) => s.append(closedTurn('kept'))));
    expect(commits).toEqual([{ appends: 4, sessions: 4 }]);
    for (const s of fresh) await expectStored(p, s);
    await p.close();
  });

  it('creates issued at once (materialized or seeded) share one commit, each resolving once its row is durable', async () => {
    const file = freshFile();
    const { p, commits } = observedStore(file);
    const parent = await createWritingSession(p, testHeader('parent'));
    await parent.append(closedTurn('one'));
    commits.length = 0;
    const seeded = (i: number): ReturnType<typeof planFork> =>
      planFork(parent.id, parent.events, parent.events.length, { id: SessionId(`c-${i}`) });
    const creates = Array.from({ length: 30 }, (_, i) =>
      i % 3 === 0
        ? p.create({ header: seeded(i).header, inheritedEvents: seeded(i).events })
        : p.create({ header: testHeader(`c-${i}`), materialize: true }),
    );
    await Promise.all(creates);
    expect(commits).toEqual([{ appends: 30, sessions: 30 }]);
    // Another connection sees every one: committed, not held in memory.
    const reader = openSqlitePersistence({ path: file });
    expect((await reader.list()).map((s) => s.header.id as string).sort()).toEqual(
      ['parent', ...Array.from({ length: 30 }, (_, i) => `c-${i}`)].sort(),
    );
    for (let i = 0; i < 30; i += 3)
      expect((await reader.inspect(SessionId(`c-${i}`))).events).toEqual(parent.events);
    await reader.close();
    await p.close();
  });

  it('a failed commit of a group of creates fails each, leaving nothing stored or pending', async () => {
    const { p, commits, faults, headers } = faultyStoreOfFour('m');
    faults.arm('sync');
    const results = await Promise.allSettled(
      headers.map((header) => p.create({ header, materialize: true })),
    );
    expect(results.every((r) => failedWith(r, 'PERSISTENCE_IO'))).toBe(true);
    expect(faults.hitsOf('sync')).toBe(1); // one commit for the whole group
    faults.heal();
    expect(commits).toEqual([]);
    expect(await p.list()).toEqual([]);
    // As if never created: the same ids create again (no PERSISTENCE_EXISTS from a stale pending one).
    await Promise.all(headers.map((header) => p.create({ header, materialize: true })));
    expect((await p.list()).map((s) => s.header.id).sort()).toEqual(headers.map((h) => h.id).sort());
    await p.close();
  });

  it('each session keeps the order of its appends, however they interleave in one group', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.nat({ max: 3 }), { minLength: 1, maxLength: 16 }),
        async (sessionCount, plan) => {
          const { p, commits } = observedStore(freshFile());
          try {
            const all = await sessions(p, sessionCount);
            commits.length = 0;
            const appends = plan.map((pick, n) =>
              all[pick % sessionCount]!.append({ type: 'test/payload', data: { n } }),
            );
            await Promise.all(appends);
            expect(commits).toEqual([
              { appends: plan.length, sessions: new Set(plan.map((pick) => pick % sessionCount)).size },
            ]);
            for (const s of all) {
              if (s.events.length > 0) await expectStored(p, s);
              else expect(await p.revisionOf(s.id)).toBeUndefined();
            }
          } finally {
            await p.close();
          }
        },
      ),
      { numRuns: 25 },
    );
  });

  it('a read, flush or other write commits the appends queued before it first', async () => {
    const { p, commits } = observedStore(freshFile());
    const [a, b] = await sessions(p, 2);
    const pending = [a!.append(closedTurn('a')), b!.append(closedTurn('b'))];
    const log = await p.inspect(a!.id);
    expect(log.events).toHaveLength(11);
    expect(commits).toEqual([{ appends: 2, sessions: 2 }]);
    await Promise.all(pending);
    const later = a!.append(closedTurn('again'));
    await p.delete(a!.id);
    await later;
    expect(await p.revisionOf(a!.id)).toBeUndefined();
    await p.close();
  });
});
