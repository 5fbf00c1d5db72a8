import { describe, expect, it } from 'vitest';
import { isPersistenceError, type SessionPersistence, type StoredLog } from '@strand/persistence';
import { Session, type SessionEvent, type SessionEventInput } from '@strand/session';
import { closedTurn, crashedTurn, createWritingSession, testHeader } from './log-builders.js';
import { storeRunner, type PersistenceUnderTest } from './persistence-contract-harness.js';

/** The write-side paths a storage fault can hit: every one must fail typed (`PERSISTENCE_IO`). */
export const STORAGE_FAULT_PATHS = ['open', 'write', 'sync', 'rename', 'create', 'delete'] as const;
export type StorageFaultPath = (typeof STORAGE_FAULT_PATHS)[number];

/** Faults a backend injects below its `SessionPersistence` (an OS or engine error on one path). */
export interface InjectedStorageFaults {
  /** From now on every storage call on `path` fails as the storage would, until `heal`. */
  arm(path: StorageFaultPath): void;
  heal(): void;
  /** How many storage calls on `path` failed so far. */
  hitsOf(path: StorageFaultPath): number;
}

/** A backend instance whose storage calls can be made to fail; `reopen` opens through the same faults. */
export interface FaultyPersistenceUnderTest extends PersistenceUnderTest {
  readonly faults: InjectedStorageFaults;
  reopen(): Promise<SessionPersistence>;
}

type Outcome = { readonly ok: true } | { readonly ok: false; readonly error: unknown };

async function settle(promise: Promise<unknown>): Promise<Outcome> {
  return promise.then(
    () => ({ ok: true }),
    (error: unknown) => ({ ok: false, error }),
  );
}

/** The events a live session would hand its writer for `input` after `log` (no write here). */
async function nextBatch(
  log: Pick<StoredLog, 'header' | 'incarnation' | 'events'>,
  input: SessionEventInput | SessionEventInput[],
): Promise<SessionEvent[]> {
  let batch: readonly SessionEvent[] = [];
  const session = new Session({
    header: log.header,
    incarnation: log.incarnation,
    events: log.events,
    writer: {
      write: (events) => {
        batch = events;
        return Promise.resolve();
      },
    },
  });
  await session.append(input);
  return [...batch];
}

/**
 * The storage-fault cases (packages/persistence/README.md, "Storage faults"): for each write-side
 * path, with the fault armed, every write that meets it — an append to a cold log (its writer
 * opened afresh), a repairing load, a create, a first append, an attachment, a delete, a reopen —
 * either succeeds or rejects with `PERSISTENCE_IO`, never an untyped error; once healed, every log
 * reads back as it was (or, for a failed delete, is gone), and the store writes again.
 */
export function storageFaultContract(name: string, open: () => Promise<FaultyPersistenceUnderTest>): void {
  let faults: InjectedStorageFaults | undefined;
  const withStore = storeRunner(async () => {
    const target = await open();
    faults = target.faults;
    return target;
  });
  describe(`SessionPersistence storage faults: ${name}`, () => {
    for (const path of STORAGE_FAULT_PATHS) {
      it(`a fault on ${path} fails every write it meets with PERSISTENCE_IO and loses nothing durable`, () =>
        withStore(async (store) => {
          const injected = faults!;
          const kept = await createWritingSession(store.p, testHeader('kept'));
          await kept.append(closedTurn('durable'));
          const attachment = { bytes: new Uint8Array([1, 2, 3]), mediaType: 'text/plain' };
          const ref = await store.p.putAttachment(kept.id, attachment);
          const crashed = await createWritingSession(store.p, testHeader('crashed'));
          await crashed.append(crashedTurn('cut short', ['call-1']));
          const doomed = await createWritingSession(store.p, testHeader('doomed'));
          await doomed.append(closedTurn('to delete'));
          // A fresh instance holds no writer: the next append opens its log.
          let p = await store.reopen();
          const before = {
            kept: await p.inspect(kept.id),
            crashed: await p.inspect(crashed.id),
            doomed: await p.inspect(doomed.id),
          };
          const lazy = testHeader('lazy');
          injected.arm(path);
          const outcomes: Outcome[] = [];
          outcomes.push(
            await settle(p.append(kept.id, await nextBatch(before.kept, closedTurn('under fault')))),
          );
          outcomes.push(await settle(p.load(crashed.id)));
          outcomes.push(await settle(p.create({ header: testHeader('materialized'), materialize: true })));
          const { incarnation } = await p.create({ header: lazy });
          const first = await nextBatch({ header: lazy, incarnation, events: [] }, closedTurn('first'));
          outcomes.push(await settle(p.append(lazy.id, first)));
          outcomes.push(
            await settle(p.putAttachment(kept.id, { bytes: new Uint8Array([4, 5]), mediaType: 'a/b' })),
          );
          outcomes.push(await settle(p.delete(doomed.id)));
          outcomes.push(await settle(store.reopen()));

          expect(injected.hitsOf(path), `no storage call on ${path} was made`).toBeGreaterThan(0);
          const failures = outcomes.flatMap((o) => (o.ok ? [] : [o.error]));
          expect(failures.length, `a fault on ${path} failed no write`).toBeGreaterThan(0);
          for (const error of failures) {
            expect(error).toMatchObject({ name: 'PersistenceError', code: 'PERSISTENCE_IO' });
            expect((error as Error).cause).toBeDefined();
          }

          injected.heal();
          p = await store.reopen();
          const after = await p.inspect(kept.id);
          expect(after.header).toEqual(before.kept.header);
          expect(after.incarnation).toBe(before.kept.incarnation);
          expect(after.events.slice(0, before.kept.events.length)).toEqual(before.kept.events);
          if (!outcomes[0]!.ok) expect(after.events).toEqual(before.kept.events);
          const stored = await p.readAttachment(kept.id, ref);
          expect([...stored.bytes]).toEqual([1, 2, 3]);
          expect(stored.mediaType).toBe('text/plain');
          const repaired = await p.inspect(crashed.id);
          expect(repaired.events.slice(0, before.crashed.events.length)).toEqual(before.crashed.events);
          const firstWrite = await settle(p.inspect(lazy.id));
          if (firstWrite.ok) expect((await p.inspect(lazy.id)).events).toEqual(first);
          else expect(isPersistenceError(firstWrite.error, 'PERSISTENCE_NOT_FOUND')).toBe(true);
          const gone = await settle(p.inspect(doomed.id));
          if (gone.ok) expect((await p.inspect(doomed.id)).events).toEqual(before.doomed.events);
          else expect(isPersistenceError(gone.error, 'PERSISTENCE_NOT_FOUND')).toBe(true);

          // The store writes again: the kept log goes on where it stands.
          await p.append(kept.id, await nextBatch(after, closedTurn('healed')));
          const healed = await p.inspect(kept.id);
          expect(healed.events.slice(0, after.events.length)).toEqual(after.events);
          expect(healed.events.map((e) => e.seq)).toEqual(healed.events.map((_, i) => i));
        }));
    }
  });
}
