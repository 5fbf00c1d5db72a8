import { expect, it } from 'vitest';
import { checkLogInvariants, repairEvents, SessionId, SessionSeq, type SessionEvent } from '@strand/session';
import type { PersistedSessionSummary, ReadOptions } from '@strand/persistence';
import { closedTurn, crashedTurn, createWritingSession, testHeader } from './log-builders.js';
import { isDeepFrozen, rejectsWith, type WithStore } from './persistence-contract-harness.js';

/** Listing, exact and repairing reads, suffix reads, opaque types, freezing and cancellation. */
export function readBehaviour(withStore: WithStore): void {
  it('lists header, revision, incarnation and storedBytes of every stored session, never inheritedEventCount', () =>
    withStore(async ({ p }) => {
      const a = await createWritingSession(p, testHeader('list-a', { cwd: '/work' }));
      const b = await createWritingSession(
        p,
        testHeader('list-b', { origin: 'subagent', parentSession: a.id }),
      );
      await a.append(closedTurn('a'));
      await b.append(closedTurn('b'));
      const rows = [...(await p.list())].sort((x, y) => (x.header.id < y.header.id ? -1 : 1));
      expect(rows.map((r) => r.header)).toEqual([a.header, b.header]);
      for (const [row, session] of [
        [rows[0]!, a],
        [rows[1]!, b],
      ] as const) {
        expect(row.incarnation).toBe(session.incarnation);
        expect(row.revision).toBe(await p.revisionOf(session.id));
        expect(Number.isSafeInteger(row.storedBytes) && row.storedBytes > 0).toBe(true);
        expect(row).not.toHaveProperty('inheritedEventCount');
      }
    }));

  it('listChunks walks the same summaries as list, in code point order, at most a chunk at a time', () =>
    withStore(async ({ p }) => {
      // Code point order puts U+E000 before U+1F600 (a surrogate pair); UTF-16 order would not.
      const ids = ['walk-b', 'walk-\u{1F600}', 'walk-ab', 'walk-z', 'walk-\uE000', 'walk-a'];
      for (const id of ids) await p.create({ header: testHeader(id), materialize: true });
      const chunks: (readonly PersistedSessionSummary[])[] = [];
      for await (const chunk of p.listChunks({ chunk: 2 })) chunks.push(chunk);
      expect(chunks.map((chunk) => chunk.length)).toEqual([2, 2, 2]);
      const walked = chunks.flat();
      expect(walked.map((row) => row.header.id)).toEqual([
        'walk-a',
        'walk-ab',
        'walk-b',
        'walk-z',
        'walk-\uE000',
        'walk-\u{1F600}',
      ]);
      const listed = new Map((await p.list()).map((row) => [row.header.id, row]));
      for (const row of walked) expect(row).toEqual(listed.get(row.header.id));
    }));

  it('a walk left after its first chunk releases what it held: the store keeps working, and closes', () =>
    withStore(async ({ p }) => {
      for (const id of ['left-a', 'left-b', 'left-c'])
        await p.create({ header: testHeader(id), materialize: true });
      for await (const chunk of p.listChunks({ chunk: 1 })) {
        expect(chunk.map((row) => row.header.id)).toEqual(['left-a']);
        break;
      }
      await p.delete(SessionId('left-b'));
      const walked: string[] = [];
      for await (const chunk of p.listChunks({ chunk: 5 })) walked.push(...chunk.map((row) => row.header.id));
      expect(walked).toEqual(['left-a', 'left-c']);
      // The harness closes the store after this: a walk that kept a connection would hang it.
    }));

  const crashes = [
    { label: 'two unanswered calls in an open step', callIds: ['c1', 'c2'], stepOpen: true },
    { label: 'no calls and a closed step', callIds: [], stepOpen: false },
  ];

  for (const crash of crashes) {
    it(`inspect returns closers for a crashed turn (${crash.label}) in memory and writes nothing`, () =>
      withStore(async (store) => {
        const session = await createWritingSession(store.p, testHeader('crashed'));
        await session.append(closedTurn('fine'));
        await session.append(crashedTurn('boom', crash.callIds, { stepOpen: crash.stepOpen }));
        const p = await store.reopen();
        const before = await p.revisionOf(session.id);
        const log = await p.inspect(session.id);
        expect(log.events).toEqual(session.events);
        expect(log.repairs).toEqual(repairEvents(session.events));
        const { time } = session.events.at(-1)!;
        const expected = [
          ...crash.callIds.map((callId) => ({
            type: 'tool/result',
            data: { callId, content: '', isError: true, code: 'TOOL_OUTCOME_UNKNOWN' },
          })),
          ...(crash.stepOpen ? [{ type: 'step/end', data: {} }] : []),
          { type: 'turn/end', data: { reason: 'interrupted' } },
        ].map((closer, i) => ({ ...closer, seq: session.events.length + i, time }));
        expect(log.repairs).toEqual(expected);
        expect(await p.revisionOf(session.id)).toBe(before);
        expect((await p.inspect(session.id)).events).toHaveLength(session.events.length);
      }));
  }
  it('load writes exactly the closers inspect reported, changes the revision once, and a second load writes nothing', () =>
    withStore(async (store) => {
      const session = await createWritingSession(store.p, testHeader('repaired'));
      await session.append(closedTurn('fine'));
      await session.append(crashedTurn('boom', ['c1', 'c2', 'c3']));
      const p = await store.reopen();
      const inspected = await p.inspect(session.id);
      const loaded = await p.load(session.id);
      expect(loaded.repairs).toEqual([]);
      expect(loaded.events).toEqual([...inspected.events, ...inspected.repairs]);
      expect(loaded.revision).not.toBe(inspected.revision);
      expect(await p.revisionOf(session.id)).toBe(loaded.revision);
      const after = await p.inspect(session.id);
      expect(after.events).toEqual(loaded.events);
      expect(after.repairs).toEqual([]);
      expect(checkLogInvariants(after.events, { closedTurns: true })).toEqual([]);
      const again = await p.load(session.id);
      expect(again.events).toEqual(loaded.events);
      expect(again.revision).toBe(loaded.revision);
    }));

  it('a session with a source (imported, read-only) keeps its open turn: inspect, scan and load add no closers', () =>
    withStore(async (store) => {
      const header = testHeader('sourced', { source: { harness: 'codex', sourceId: '0199-live' } });
      const session = await createWritingSession(store.p, header);
      await session.append(closedTurn('fine'));
      await session.append(crashedTurn('still running', ['c1'], { stepOpen: true }));
      const p = await store.reopen();
      const before = await p.revisionOf(session.id);
      expect((await p.inspect(session.id)).repairs).toEqual([]);
      expect((await p.scan(session.id, { dataTypes: new Set(['tool/call']) })).repairs).toEqual([]);
      const loaded = await p.load(session.id);
      expect(loaded.events).toEqual(session.events);
      expect(loaded.repairs).toEqual([]);
      expect(await p.revisionOf(session.id)).toBe(before);
      expect(loaded.header.source).toEqual({ harness: 'codex', sourceId: '0199-live' });
    }));

  it('readFrom returns exactly the events with seq >= from and the stored cursor', () =>
    withStore(async ({ p }) => {
      const session = await createWritingSession(p, testHeader('suffix'));
      for (const prompt of ['a', 'b', 'c']) await session.append(closedTurn(prompt));
      const length = session.events.length;
      // Beyond the end (a follower asking "anything after my cursor?") is an empty suffix, up to
      // the largest seq a client can send.
      for (const from of [0, 1, 20, length - 1, length, length + 5, Number.MAX_SAFE_INTEGER]) {
        const suffix = await p.readFrom(session.id, SessionSeq(from));
        expect(suffix.from).toBe(from);
        expect(suffix.cursor).toBe(length);
        expect(suffix.events).toEqual(from >= length ? [] : session.events.slice(from));
        expect(suffix.header).toEqual(session.header);
        expect(suffix.incarnation).toBe(session.incarnation);
        expect(suffix.revision).toBe(await p.revisionOf(session.id));
      }
    }));

  it('keeps unknown event types opaque: stored and read back unchanged', () =>
    withStore(async (store) => {
      const session = await createWritingSession(store.p, testHeader('unknown-types'));
      await session.append([
        {
          type: 'x-plugin/widget',
          data: { nested: [1, 'two', null, { deep: [true, { deeper: 'yes' }] }] },
        },
        { type: 'x-plugin/scalar', data: 'just a string' },
        { type: 'future/event-v9', data: [] },
        { type: 'turn/start', data: {} },
        { type: 'x-plugin/number', data: 12.5 },
      ]);
      expect((await store.p.inspect(session.id)).events).toEqual(session.events);
      expect((await (await store.reopen()).inspect(session.id)).events).toEqual(session.events);
    }));

  it('returns deep-frozen events from inspect, load and readFrom', () =>
    withStore(async (store) => {
      const session = await createWritingSession(store.p, testHeader('frozen'));
      await session.append(closedTurn('freeze'));
      await session.append({ type: 'x-plugin/tree', data: { a: [{ b: { c: [1, 2] } }] } });
      const p = await store.reopen();
      const reads: (readonly SessionEvent[])[] = [
        (await p.inspect(session.id)).events,
        (await p.load(session.id)).events,
        (await p.readFrom(session.id, SessionSeq(3))).events,
      ];
      for (const events of reads) {
        expect(Object.isFrozen(events[0])).toBe(true);
        for (const event of events)
          expect(isDeepFrozen(event), `event ${event.seq} is deep-frozen`).toBe(true);
      }
    }));

  it('fails every read with PERSISTENCE_ABORTED when the signal has aborted', () =>
    withStore(async ({ p }) => {
      const session = await createWritingSession(p, testHeader('aborted'));
      await session.append(closedTurn('a'));
      const ref = await p.putAttachment(session.id, {
        bytes: new Uint8Array([1, 2, 3]),
        mediaType: 'image/png',
      });
      const controller = new AbortController();
      controller.abort(new Error('caller gave up'));
      const options: ReadOptions = { signal: controller.signal };
      await rejectsWith(p.list(options), 'PERSISTENCE_ABORTED');
      await rejectsWith(p.revisionOf(session.id, options), 'PERSISTENCE_ABORTED');
      await rejectsWith(p.inspect(session.id, options), 'PERSISTENCE_ABORTED');
      await rejectsWith(p.load(session.id, options), 'PERSISTENCE_ABORTED');
      await rejectsWith(p.readFrom(session.id, SessionSeq(0), options), 'PERSISTENCE_ABORTED');
      await rejectsWith(p.readAttachment(session.id, ref, options), 'PERSISTENCE_ABORTED');
    }));
}
