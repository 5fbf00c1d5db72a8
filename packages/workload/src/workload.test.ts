import { Session, checkLogInvariants, newSessionHeader, SessionId } from '@strand/session';
import { describe, expect, it } from 'vitest';
import {
  EVENTS_PER_TURN,
  workloadBatches,
  workloadEventCount,
  workloadEvents,
  workloadSession,
  workloadTurns,
} from './index.js';
import { VOCABULARY } from './vocabulary.js';

const TURN_ORDER = [
  'turn/start',
  'user/message',
  ...Array.from({ length: 3 }, () => [
    'step/start',
    'assistant/message',
    'tool/call',
    'tool/result',
    'step/end',
  ]).flat(),
  'step/start',
  'assistant/message',
  'step/end',
  'turn/end',
];

describe('standard workload', () => {
  it('is deterministic: the same session index yields the same bytes, another index differs', () => {
    expect(JSON.stringify(workloadSession(3, 500))).toBe(JSON.stringify(workloadSession(3, 500)));
    expect(JSON.stringify(workloadSession(4, 500))).not.toBe(JSON.stringify(workloadSession(3, 500)));
  });

  it('rounds sizes up to whole 21-event turns', () => {
    expect(workloadEventCount(1_000)).toBe(1_008);
    expect(workloadEventCount(10_000)).toBe(10_017);
    expect(workloadEventCount(100_000)).toBe(100_002);
    expect(workloadSession(0, 1_000)).toHaveLength(1_008);
  });

  it('produces turns of exactly 21 events in the documented order', () => {
    const turns = [...workloadTurns(1, 210)];
    expect(turns).toHaveLength(10);
    for (const turn of turns) {
      expect(turn).toHaveLength(EVENTS_PER_TURN);
      expect(turn.map((e) => e.type)).toEqual(TURN_ORDER);
    }
  });

  it('keeps text inside the documented ranges and the tool call arguments identical on both events', () => {
    const turn = [...workloadTurns(2, 21)][0]!;
    const user = turn[1]!.data as { content: string; author: string };
    expect(user.author).toBe('human');
    expect(user.content.length).toBeGreaterThanOrEqual(500);
    expect(user.content.length).toBeLessThanOrEqual(2_000);
    const assistant = turn[3]!.data as { content: string; toolCalls: { id: string; arguments: string }[] };
    const call = turn[4]!.data as { callId: string; arguments: string };
    expect(call.callId).toBe(assistant.toolCalls[0]!.id);
    expect(call.arguments).toBe(assistant.toolCalls[0]!.arguments);
    const args = JSON.parse(call.arguments) as { path: string; content: string };
    expect(args.content.length).toBeGreaterThanOrEqual(400);
    expect(args.content.length).toBeLessThanOrEqual(1_800);
  });

  it('has a vocabulary of 5,000 distinct words of 2–11 letters', () => {
    expect(new Set(VOCABULARY).size).toBe(5_000);
    for (const word of VOCABULARY) expect(word).toMatch(/^[a-z]{2,11}$/);
  });

  it('streams in batches of whole turns that concatenate to the whole session', () => {
    const batches = [...workloadBatches(5, 1_000, 100)];
    for (const batch of batches) expect(batch.length % EVENTS_PER_TURN).toBe(0);
    expect(JSON.stringify(batches.flat())).toBe(JSON.stringify(workloadSession(5, 1_000)));
  });

  it('averages roughly 0.89 KB per serialized event (README.md)', () => {
    const events = workloadEvents(workloadSession(0, 10_000));
    const bytes = events.reduce((sum, e) => sum + JSON.stringify(e).length + 1, 0);
    const perEvent = bytes / events.length / 1_000;
    // Our envelope is leaner than dsh's (~0.81 KB measured); the text sizes follow the spec ranges.
    expect(perEvent).toBeGreaterThan(0.75);
    expect(perEvent).toBeLessThan(1.0);
  });

  it('is valid core vocabulary: a live session accepts it and the log keeps its invariants', async () => {
    const session = new Session({ header: newSessionHeader({ id: SessionId('wl'), createdAt: 0 }) });
    await session.append(workloadSession(0, 1_000));
    expect(session.events).toHaveLength(1_008);
    expect(checkLogInvariants(session.events, { closedTurns: true })).toEqual([]);
  });
});
