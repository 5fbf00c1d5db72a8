import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eventBatches, eventInput } from '@strand/test-support';
import type { SessionEventInput } from './event.js';
import { newSessionHeader } from './header.js';
import { SessionId } from './ids.js';
import { checkLogInvariants } from './invariants.js';
import { repairClosers, repairEvents } from './repair.js';
import { Session } from './session.js';

/**
 * The shared log arbitraries (`eventBatches`: random turn structure, calls, unknown types) plus
 * what they never generate on their own: turn ends, and tool results for a small set of call ids
 * (which calls also use), so some calls are answered and some turns closed before the crash.
 */
const callId = fc.constantFrom('c1', 'c2', 'c3');
const closerInput: fc.Arbitrary<SessionEventInput> = fc.oneof(
  fc.record({
    type: fc.constant('turn/end'),
    data: fc.record({ reason: fc.constantFrom('completed', 'aborted', 'error') }),
  }),
  fc.record({
    type: fc.constant('tool/call'),
    data: fc.record({ callId, name: fc.constant('read'), arguments: fc.constant('{}') }),
  }),
  fc.record({ type: fc.constant('tool/result'), data: fc.record({ callId, content: fc.constant('ok') }) }),
  fc.record({ type: fc.constant('turn/start'), data: fc.constant({}) }),
);
const crashedLog = fc
  .tuple(
    eventBatches(),
    fc.array(fc.oneof({ weight: 2, arbitrary: eventInput() }, { weight: 3, arbitrary: closerInput }), {
      maxLength: 30,
    }),
    fc.array(fc.nat(), { maxLength: 30 }),
  )
  .map(([batches, extra, at]) => {
    // Interleave the extra inputs into the flattened batches at generated positions.
    const inputs = batches.flat();
    extra.forEach((input, i) => inputs.splice((at[i] ?? 0) % (inputs.length + 1), 0, input));
    return inputs;
  });

async function logOf(inputs: readonly SessionEventInput[]): Promise<Session> {
  const session = new Session({ header: newSessionHeader({ id: SessionId('crashed'), createdAt: 0 }) });
  await session.append(inputs);
  return session;
}

/** The calls of the last open turn still waiting for a result, modelled independently of `openWorkAt`. */
function unansweredInOpenTurn(inputs: readonly SessionEventInput[]): string[] | undefined {
  let open: string[] | undefined;
  for (const { type, data } of inputs) {
    const id = (data as { callId?: unknown } | null)?.callId;
    if (type === 'turn/start') open = [];
    else if (type === 'turn/end') open = undefined;
    else if (type === 'tool/call' && open !== undefined && typeof id === 'string') open.push(id);
    else if (type === 'tool/result' && open !== undefined) open = open.filter((c) => c !== id);
  }
  return open;
}

describe('repairEvents (property over the shared log arbitraries)', () => {
  it('closes exactly the open turn: contiguous seqs, the last stored time, idempotent, and a session accepts the closers', async () => {
    await fc.assert(
      fc.asyncProperty(crashedLog, async (inputs) => {
        const session = await logOf(inputs);
        const log = session.events;
        const closers = repairEvents(log);
        const open = unansweredInOpenTurn(inputs);
        if (open === undefined) {
          expect(closers).toEqual([]);
          return;
        }
        expect(closers.map((e) => e.seq)).toEqual(closers.map((_, i) => log.length + i));
        expect(closers.every((e) => e.time === log.at(-1)!.time)).toBe(true);
        expect(closers.at(-1)).toMatchObject({ type: 'turn/end', data: { reason: 'interrupted' } });
        expect(
          closers.filter((e) => e.type === 'tool/result').map((e) => (e.data as { callId: string }).callId),
        ).toEqual(open);
        const repaired = [...log, ...closers];
        expect(checkLogInvariants(repaired, { closedTurns: true })).toEqual([]);
        expect(repairEvents(repaired)).toEqual([]);
        // What a repairing load writes is an ordinary append: the session takes it, seq for seq.
        await session.append(repairClosers(log));
        expect(session.events).toEqual(repaired);
      }),
    );
  });

  it('a suffix starting at or before the open turn’s turn/start yields the same closers', async () => {
    await fc.assert(
      fc.asyncProperty(crashedLog, fc.nat(), async (inputs, pick) => {
        const log = (await logOf(inputs)).events;
        const lastStart = log.findLastIndex((e) => e.type === 'turn/start');
        const from = lastStart < 0 ? pick % (log.length + 1) : pick % (lastStart + 1);
        expect(repairEvents(log.slice(from), log.length)).toEqual(repairEvents(log));
      }),
    );
  });
});
