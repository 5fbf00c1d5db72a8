import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkPromises, type CheckInput, type StoredLogs } from './checker.js';
import { contentHash, emptyLedger, type EventContent, type Ledger } from './ledger.js';

const event = (
  seq: number,
  type = 'assistant/message',
  data: unknown = { content: `answer ${seq}` },
): EventContent => ({
  seq,
  type,
  time: 1_000 + seq,
  data,
});

/** A log of `n` events, a rename at seq 1 and a prompt at seq 3. */
function log(n: number): EventContent[] {
  return Array.from({ length: n }, (_, seq) =>
    seq === 1
      ? event(seq, 'session/rename', { title: 'cedar 7' })
      : seq === 3
        ? event(seq, 'user/message', { content: 'soak c1p1 amber delta', author: 'human' })
        : event(seq),
  );
}

/** The ledger of clients that were delivered every event of `logs` and acknowledged the rename and the prompt. */
function ledgerOf(logs: StoredLogs): Ledger {
  const ledger = emptyLedger();
  for (const [session, events] of logs) {
    for (const e of events!) ledger.delivered.push({ session, seq: e.seq, hash: contentHash(e), client: 0 });
    ledger.acknowledged.push({ session, method: 'session.create' });
    ledger.acknowledged.push({ session, seq: 1, method: 'session.rename', data: { title: 'cedar 7' } });
    ledger.acknowledged.push({ session, method: 'session.prompt', text: 'soak c1p1 amber delta' });
  }
  ledger.refusals.push({ method: 'session.prompt', code: 'AGENT_BUSY', message: 'a turn is running' });
  return ledger;
}

const input = (ledger: Ledger, stored: StoredLogs, more: Partial<CheckInput> = {}): CheckInput => ({
  ledger,
  stored,
  lockLeft: [],
  crashes: [],
  notReopened: [],
  ...more,
});

describe('the soak checker', () => {
  it('finds nothing broken when every promise is in the logs', () => {
    const stored = new Map([
      ['a', log(6)],
      ['b', log(4)],
    ]);
    const verdict = checkPromises(input(ledgerOf(stored), stored));
    expect(verdict).toMatchObject({
      lostAcknowledged: 0,
      lostDelivered: 0,
      undocumentedRefusals: 0,
      broken: [],
    });
  });

  it('reports a delivered event the log no longer has, naming its session and seq', () => {
    const ledger = ledgerOf(new Map([['a', log(6)]]));
    const verdict = checkPromises(input(ledger, new Map([['a', log(5)]])));
    expect(verdict.lostDelivered).toBe(1);
    expect(verdict.broken[0]).toMatchObject({ promise: 'delivered', session: 'a', seq: 5 });
  });

  it('reports a delivered event whose stored content was tampered with (data, type or time)', () => {
    const ledger = ledgerOf(new Map([['a', log(6)]]));
    for (const tampered of [
      { ...event(4), data: { content: 'answer 4 (edited)' } },
      { ...event(4), type: 'assistant/note' },
      { ...event(4), time: 0 },
    ]) {
      const stored = log(6);
      stored[4] = tampered;
      const verdict = checkPromises(input(ledger, new Map([['a', stored]])));
      expect(verdict.lostDelivered).toBe(1);
      expect(verdict.broken).toEqual([
        expect.objectContaining({ promise: 'delivered', session: 'a', seq: 4 }),
      ]);
    }
  });

  it('counts an event several clients were delivered once', () => {
    const ledger = ledgerOf(new Map([['a', log(6)]]));
    const last = ledger.delivered.find((d) => d.seq === 5)!;
    ledger.delivered.push({ ...last, client: 1 }, { ...last, client: 2 });
    expect(checkPromises(input(ledger, new Map([['a', log(5)]]))).lostDelivered).toBe(1);
  });

  it('reports an acknowledged append that is missing or holds other data, an accepted prompt with no stored message, a session not stored', () => {
    const ledger = ledgerOf(new Map([['a', log(6)]]));
    ledger.acknowledged.push({ session: 'a', seq: 9, method: 'session.rename', data: { title: 'x' } });
    ledger.acknowledged.push({ session: 'a', seq: 1, method: 'session.rename', data: { title: 'other' } });
    ledger.acknowledged.push({ session: 'a', method: 'session.prompt', text: 'soak c2p9 never stored' });
    ledger.acknowledged.push({ session: 'gone', method: 'session.fork' });
    const verdict = checkPromises(input(ledger, new Map([['a', log(6)]])));
    expect(verdict.lostAcknowledged).toBe(4);
    expect(
      verdict.broken.map((b) => [b.promise, 'session' in b ? b.session : '', 'seq' in b ? b.seq : undefined]),
    ).toEqual([
      ['acknowledged', 'a', 9],
      ['acknowledged', 'a', 1],
      ['acknowledged', 'a', undefined],
      ['acknowledged', 'gone', undefined],
    ]);
  });

  it('counts a refusal outside its method’s documented list, one with no code, and RPC_INTERNAL_ERROR (a bug); a documented one passes', () => {
    const stored = new Map([['a', log(4)]]);
    const ledger = ledgerOf(stored);
    ledger.refusals.push(
      { method: 'session.rename', code: 'PERSISTENCE_IO', message: 'documented for an append' },
      { method: 'session.list', code: 'AGENT_BUSY', message: 'not a list refusal' },
      { method: 'session.page', code: undefined, message: 'no code' },
      { method: 'session.prompt', code: 'RPC_INTERNAL_ERROR', message: 'a bug' },
      { method: 'session.nope', code: 'RPC_METHOD_NOT_FOUND', message: 'no such method in the table' },
    );
    const verdict = checkPromises(input(ledger, stored));
    expect(verdict.undocumentedRefusals).toBe(4);
    expect(verdict.broken.map((b) => ('method' in b ? b.method : ''))).toEqual([
      'session.list',
      'session.page',
      'session.prompt',
      'session.nope',
    ]);
  });

  it('reports a lock left behind, a host that crashed and a session that did not reopen', () => {
    const stored = new Map([['a', log(4)]]);
    const verdict = checkPromises(
      input(ledgerOf(stored), stored, {
        lockLeft: ['strand.lock.json was left behind'],
        crashes: ['the host exited by itself (1)'],
        notReopened: [{ session: 'a', reason: 'AGENT_BUSY' }],
      }),
    );
    expect(verdict).toMatchObject({ locksLeft: 1, crashes: 1, notReopened: 1 });
    expect(verdict.broken.map((b) => b.promise)).toEqual(['lock', 'crash', 'reopen']);
  });

  it('a log cut at any point loses exactly the delivered events past the cut (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 4, max: 40 }).chain((n) =>
          fc.record({
            n: fc.constant(n),
            cut: fc.integer({ min: 4, max: n }),
            seen: fc.subarray([...Array(n).keys()]),
          }),
        ),
        ({ n, cut, seen }) => {
          const full = log(n);
          const ledger = emptyLedger();
          for (const seq of seen)
            ledger.delivered.push({ session: 'a', seq, hash: contentHash(full[seq]!), client: seq % 3 });
          const verdict = checkPromises(input(ledger, new Map([['a', full.slice(0, cut)]])));
          const lost = seen.filter((seq) => seq >= cut);
          expect(verdict.lostDelivered).toBe(lost.length);
          expect(verdict.broken.map((b) => ('seq' in b ? b.seq : undefined))).toEqual(lost);
        },
      ),
    );
  });
});
