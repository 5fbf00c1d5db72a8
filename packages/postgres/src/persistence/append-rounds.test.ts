import { describe, expect, it } from 'vitest';
import { AppendRounds, type RoundOutcome } from './append-rounds.js';

/** A send seam that records each round and settles it only when the test says so. */
function manualRounds(): {
  rounds: AppendRounds<string, string>;
  sent: string[][];
  settle: (outcomes: (writes: readonly string[]) => RoundOutcome<string>[] | Error) => Promise<void>;
  sentCount: () => Promise<number>;
} {
  const sent: string[][] = [];
  const waiting: {
    writes: readonly string[];
    resolve: (o: RoundOutcome<string>[]) => void;
    reject: (e: Error) => void;
  }[] = [];
  let roundSent: () => void = () => undefined;
  const rounds = new AppendRounds<string, string>(
    (writes) =>
      new Promise((resolve, reject) => {
        sent.push([...writes]);
        waiting.push({ writes, resolve, reject });
        roundSent();
      }),
  );
  return {
    rounds,
    sent,
    settle: async (outcomes) => {
      const next = waiting.shift()!;
      const result = outcomes(next.writes);
      if (result instanceof Error) next.reject(result);
      else next.resolve(result);
      await new Promise((resolve) => setImmediate(resolve));
    },
    /** Resolves once one more round has been sent than before the call. */
    sentCount: () => {
      const before = sent.length;
      return new Promise<number>((resolve) => {
        roundSent = () => {
          if (sent.length > before) resolve(sent.length);
        };
      });
    },
  };
}

const allWritten = (writes: readonly string[]): RoundOutcome<string>[] =>
  writes.map((w) => ({ kind: 'written', result: `ok ${w}` }));

describe('AppendRounds', () => {
  it('sends the writes queued in one turn of the event loop as one round, each resolving with its own result', async () => {
    const m = manualRounds();
    const sent = m.sentCount();
    const written = ['a', 'b', 'c'].map((w) => m.rounds.write(w));
    await sent;
    expect(m.sent).toEqual([['a', 'b', 'c']]);
    await m.settle(allWritten);
    await expect(Promise.all(written)).resolves.toEqual(['ok a', 'ok b', 'ok c']);
  });

  it('holds the writes queued while a round is in flight and sends them together once it settles', async () => {
    const m = manualRounds();
    let sent = m.sentCount();
    const first = m.rounds.write('a');
    await sent;
    const later = ['b', 'c', 'd'].map((w) => m.rounds.write(w));
    await new Promise((resolve) => setImmediate(resolve));
    expect(m.sent).toEqual([['a']]);
    sent = m.sentCount();
    await m.settle(allWritten);
    await sent;
    expect(m.sent).toEqual([['a'], ['b', 'c', 'd']]);
    await expect(first).resolves.toBe('ok a');
    await m.settle(allWritten);
    await expect(Promise.all(later)).resolves.toEqual(['ok b', 'ok c', 'ok d']);
  });

  it('fails only the write whose outcome failed; the rest of its round resolves', async () => {
    const m = manualRounds();
    const sent = m.sentCount();
    const outcomes = Promise.allSettled(['a', 'b', 'c'].map((w) => m.rounds.write(w)));
    await sent;
    const refused = new Error('refused b');
    await m.settle((writes) =>
      writes.map((w) =>
        w === 'b' ? { kind: 'failed', error: refused } : { kind: 'written', result: `ok ${w}` },
      ),
    );
    expect(await outcomes).toEqual([
      { status: 'fulfilled', value: 'ok a' },
      { status: 'rejected', reason: refused },
      { status: 'fulfilled', value: 'ok c' },
    ]);
  });

  it('fails every write of a round whose send rejected, and still sends the next round', async () => {
    const m = manualRounds();
    let sent = m.sentCount();
    const round = Promise.allSettled(['a', 'b'].map((w) => m.rounds.write(w)));
    await sent;
    const next = m.rounds.write('c');
    const broken = new Error('connection lost');
    sent = m.sentCount();
    await m.settle(() => broken);
    expect(await round).toEqual([
      { status: 'rejected', reason: broken },
      { status: 'rejected', reason: broken },
    ]);
    await sent;
    await m.settle(allWritten);
    await expect(next).resolves.toBe('ok c');
  });

  it('settles no write before its round settled', async () => {
    const m = manualRounds();
    const sent = m.sentCount();
    let settled = false;
    const write = m.rounds.write('a').finally(() => {
      settled = true;
    });
    await sent;
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    await m.settle(allWritten);
    await write;
    expect(settled).toBe(true);
  });
});
