import fc from 'fast-check';
import { expect, it } from 'vitest';
import type { SessionPersistence } from '@strand/persistence';
import { checkLogInvariants, planFork, SessionId, SessionSeq, type SessionEvent } from '@strand/session';
import { eventBatches } from './log-arbitraries.js';
import { closedTurn, createWritingSession, testHeader, writingSession } from './log-builders.js';
import { rejectsWith, type WithStore } from './persistence-contract-harness.js';

/** Appends, lazy and seeded creation, seq conflicts, revisions, and the round-trip property. */
export function writeBehaviour(withStore: WithStore): void {
  it('reads an appended log back identical through inspect, load and readFrom', () =>
    withStore(async (store) => {
      const session = await createWritingSession(store.p, testHeader('round-trip'));
      await session.append(closedTurn('hello'));
      await session.append(closedTurn('again'));
      const check = async (p: SessionPersistence): Promise<void> => {
        const log = await p.inspect(session.id);
        expect(log.header).toEqual(session.header);
        expect(log.incarnation).toBe(session.incarnation);
        expect(log.inheritedEventCount).toBe(0);
        expect(log.events).toEqual(session.events);
        expect(log.repairs).toEqual([]);
        expect(log.tornTail).toBe(false);
        expect((await p.load(session.id)).events).toEqual(session.events);
        expect((await p.readFrom(session.id, SessionSeq(0))).events).toEqual(session.events);
      };
      await check(store.p);
      await check(await store.reopen());
    }));

  it('stores appended events with contiguous seqs from 0', () =>
    withStore(async (store) => {
      const session = await createWritingSession(store.p, testHeader('contiguous'));
      for (const prompt of ['a', 'b', 'c']) await session.append(closedTurn(prompt));
      await session.append({ type: 'session/title', data: { title: 'three turns' } });
      const { events } = await store.p.inspect(session.id);
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));
      expect(checkLogInvariants(events, { closedTurns: true })).toEqual([]);
    }));

  it('refuses a second writer appending a stale seq with PERSISTENCE_SEQ_CONFLICT "expected N, got M"', () =>
    withStore(async ({ p }) => {
      const first = await createWritingSession(p, testHeader('two-writers'));
      await first.append(closedTurn('one'));
      const stored = await p.inspect(first.id);
      const second = writingSession(p, stored.header, stored.incarnation, { events: stored.events });
      await first.append(closedTurn('two'));
      const failure: unknown = await second.append(closedTurn('stale')).catch((error: unknown) => error);
      const cause = (failure as { cause?: { message?: string } }).cause;
      expect(cause).toMatchObject({ name: 'PersistenceError', code: 'PERSISTENCE_SEQ_CONFLICT' });
      expect(cause?.message).toMatch(/expected (seq )?22, got 11/);
      expect((await p.inspect(first.id)).events).toEqual(first.events);
    }));

  it('creates lazily: a session with no append is not listed and inspect is PERSISTENCE_NOT_FOUND', () =>
    withStore(async ({ p }) => {
      const header = testHeader('lazy');
      const { incarnation } = await p.create({ header });
      expect(await p.list()).toEqual([]);
      expect(await p.revisionOf(header.id)).toBeUndefined();
      await rejectsWith(p.inspect(header.id), 'PERSISTENCE_NOT_FOUND');
      await writingSession(p, header, incarnation).append(closedTurn('first'));
      const listed = await p.list();
      expect(listed.map((s) => [s.header.id, s.incarnation])).toEqual([[header.id, incarnation]]);
    }));

  it('stores a materialized create at once with no events: listed, readable, appendable, and it survives a reopen', () =>
    withStore(async (store) => {
      const header = testHeader('materialized');
      const { incarnation } = await store.p.create({ header, materialize: true });
      const check = async (p: SessionPersistence): Promise<void> => {
        const listed = await p.list();
        expect(listed.map((s) => [s.header.id, s.incarnation])).toEqual([[header.id, incarnation]]);
        expect(await p.revisionOf(header.id)).toBeDefined();
        const log = await p.inspect(header.id);
        expect(log.events).toEqual([]);
        expect(log.repairs).toEqual([]);
        expect((await p.readFrom(header.id, SessionSeq(0))).cursor).toBe(0);
      };
      await check(store.p);
      await rejectsWith(store.p.create({ header }), 'PERSISTENCE_EXISTS');
      const reopened = await store.reopen();
      await check(reopened);
      const session = writingSession(reopened, header, incarnation);
      await session.append(closedTurn('first'));
      expect((await reopened.inspect(header.id)).events).toEqual(session.events);
    }));

  it('stores a seeded create at once, listed with isSeeded and inspected with its inheritedEventCount', () =>
    withStore(async ({ p }) => {
      const parent = await createWritingSession(p, testHeader('parent'));
      await parent.append(closedTurn('one'));
      const cut = parent.events.length;
      await parent.append(closedTurn('two'));
      const plan = planFork(parent.id, parent.events, cut, {
        id: SessionId('child'),
        createdAt: 1_700_000_000_001,
      });
      const { incarnation } = await p.create({ header: plan.header, inheritedEvents: plan.events });
      const child = (await p.list()).find((s) => s.header.id === plan.header.id);
      expect(child?.header.isSeeded).toBe(true);
      expect(child?.incarnation).toBe(incarnation);
      const log = await p.inspect(plan.header.id);
      expect(log.inheritedEventCount).toBe(cut);
      expect(log.events).toEqual(parent.events.slice(0, cut));
      const suffix = await p.readFrom(plan.header.id, SessionSeq(0));
      expect(suffix.inheritedEventCount).toBe(cut);
      expect(suffix.cursor).toBe(cut);
    }));

  it('refuses a bad create before storing anything, with the same session error on every backend', () =>
    withStore(async ({ p }) => {
      const parent = await createWritingSession(p, testHeader('bad-create-parent'));
      await parent.append(closedTurn('one'));
      const plan = planFork(parent.id, parent.events, parent.events.length, {
        id: SessionId('bad-create'),
        createdAt: 1_700_000_000_001,
      });
      const code = async (create: Promise<unknown>): Promise<unknown> =>
        create.then(
          () => 'created',
          (error: unknown) => ({ name: (error as Error).name, code: (error as { code?: unknown }).code }),
        );
      // A seeded header without its prefix, an unseeded one with a prefix, a prefix with a gap.
      expect(await code(p.create({ header: plan.header }))).toEqual({
        name: 'SessionError',
        code: 'SESSION_HEADER_INVALID',
      });
      expect(
        await code(p.create({ header: testHeader('bad-create'), inheritedEvents: plan.events })),
      ).toEqual({ name: 'SessionError', code: 'SESSION_HEADER_INVALID' });
      expect(await code(p.create({ header: plan.header, inheritedEvents: plan.events.slice(1) }))).toEqual({
        name: 'SessionError',
        code: 'SESSION_SEQ_MISMATCH',
      });
      // A header that is not a valid header at all.
      expect(await code(p.create({ header: { ...testHeader('bad-create'), createdAt: -1.5 } }))).toEqual({
        name: 'SessionError',
        code: 'SESSION_HEADER_INVALID',
      });
      expect((await p.list()).map((s) => s.header.id)).toEqual([parent.id]);
    }));

  it('reports an unknown id with one not-found error, alike on every backend and every call', () =>
    withStore(async ({ p }) => {
      const nobody = SessionId('nobody');
      const event = {
        type: 'session/title',
        seq: SessionSeq(0),
        time: 0,
        data: { title: 't' },
      } as SessionEvent;
      for (const call of [
        () => p.inspect(nobody),
        () => p.load(nobody),
        () => p.readFrom(nobody, SessionSeq(0)),
        () => p.scan(nobody, { dataTypes: new Set() }),
        () => p.append(nobody, [event]),
        () => p.delete(nobody),
      ]) {
        const error = await rejectsWith(call(), 'PERSISTENCE_NOT_FOUND');
        expect(error.message).toBe('no stored session nobody');
        expect(error).toMatchObject({ sessionId: 'nobody' });
      }
    }));

  it('an empty append writes nothing: a pending session gets a revision and stays unstored', () =>
    withStore(async ({ p }) => {
      const header = testHeader('empty-append');
      const { incarnation } = await p.create({ header });
      const { revision } = await p.append(header.id, []);
      expect(typeof revision).toBe('string');
      await rejectsWith(p.inspect(header.id), 'PERSISTENCE_NOT_FOUND');
      expect(await p.list()).toEqual([]);
      const session = writingSession(p, header, incarnation);
      await session.append(closedTurn('now stored'));
      const stored = await p.inspect(header.id);
      expect(stored.events).toEqual(session.events);
      expect(stored.revision).not.toBe(revision);
      expect((await p.append(header.id, [])).revision).toBe(stored.revision);
      await rejectsWith(p.append(SessionId('never-created'), []), 'PERSISTENCE_NOT_FOUND');
    }));

  it('refuses create of an id that is pending or stored with PERSISTENCE_EXISTS', () =>
    withStore(async ({ p }) => {
      const header = testHeader('twice');
      const { incarnation } = await p.create({ header });
      const exists = async (): Promise<void> => {
        const error = await rejectsWith(p.create({ header }), 'PERSISTENCE_EXISTS');
        expect(error.message).toBe('session twice already exists');
        expect(error).toMatchObject({ sessionId: 'twice' });
      };
      await exists();
      await writingSession(p, header, incarnation).append(closedTurn('stored'));
      await exists();
      // A materialized create of a stored id is refused the same way.
      await expect(p.create({ header, materialize: true })).rejects.toMatchObject({
        code: 'PERSISTENCE_EXISTS',
        message: 'session twice already exists',
      });
    }));

  it('changes the revision on every append and never on list, inspect, readFrom or a load with nothing to repair', () =>
    withStore(async ({ p }) => {
      const session = await createWritingSession(p, testHeader('revisions'));
      const seen = new Set<string>();
      for (const prompt of ['a', 'b', 'c']) {
        await session.append(closedTurn(prompt));
        const revision = await p.revisionOf(session.id);
        expect(revision).toBeDefined();
        expect(seen.has(revision!)).toBe(false);
        seen.add(revision!);
      }
      const current = await p.revisionOf(session.id);
      expect((await p.list())[0]?.revision).toBe(current);
      expect((await p.inspect(session.id)).revision).toBe(current);
      expect((await p.readFrom(session.id, SessionSeq(5))).revision).toBe(current);
      expect((await p.load(session.id)).revision).toBe(current);
      expect((await p.load(session.id)).revision).toBe(current);
      expect(await p.revisionOf(session.id)).toBe(current);
    }));

  it('round trip property: random batches of random events read back identical, before and after reopening', () =>
    withStore(async (store) => {
      const written: { id: SessionId; events: readonly SessionEvent[] }[] = [];
      let runs = 0; // shrinking re-runs the property: every run needs a fresh id
      await fc.assert(
        fc.asyncProperty(eventBatches(), async (batches) => {
          const session = await createWritingSession(store.p, testHeader(`prop-${runs++}`));
          for (const batch of batches) await session.append(batch);
          written.push({ id: session.id, events: session.events });
          expect((await store.p.inspect(session.id)).events).toEqual(session.events);
        }),
        { numRuns: 25 },
      );
      const p = await store.reopen();
      for (const { id: sid, events } of written) expect((await p.inspect(sid)).events).toEqual(events);
    }));
}
