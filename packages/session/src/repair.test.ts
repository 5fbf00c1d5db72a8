import { describe, expect, it } from 'vitest';
import { newSessionHeader } from './header.js';
import { SessionId } from './ids.js';
import { repairEvents } from './repair.js';
import { Session } from './session.js';
import { checkLogInvariants } from './invariants.js';

describe('crash repair closers', () => {
  it('close an open turn: unknown tool outcomes, the open step, then turn/end interrupted', async () => {
    const session = new Session({ header: newSessionHeader({ id: SessionId('r') }) });
    await session.append([
      { type: 'turn/start', data: {}, time: 5 },
      { type: 'step/start', data: {}, time: 6 },
      { type: 'tool/call', data: { callId: 'a', name: 'read', arguments: '{}' }, time: 7 },
      { type: 'tool/call', data: { callId: 'b', name: 'read', arguments: '{}' }, time: 8 },
      { type: 'tool/result', data: { callId: 'a', content: 'ok' }, time: 9 },
    ]);
    const closers = repairEvents(session.events);
    expect(closers.map((e) => [e.seq, e.type, e.time])).toEqual([
      [5, 'tool/result', 9],
      [6, 'step/end', 9],
      [7, 'turn/end', 9],
    ]);
    expect(closers[0]!.data).toEqual({
      callId: 'b',
      content: '',
      isError: true,
      code: 'TOOL_OUTCOME_UNKNOWN',
    });
    expect(closers[2]!.data).toEqual({ reason: 'interrupted' });
    // Deterministic: a pure function of the log.
    expect(repairEvents(session.events)).toEqual(closers);
    expect(checkLogInvariants([...session.events, ...closers], { closedTurns: true })).toEqual([]);
  });

  it('need nothing for a log whose turns are closed', async () => {
    const session = new Session({ header: newSessionHeader({ id: SessionId('r') }) });
    await session.append([
      { type: 'turn/start', data: {} },
      { type: 'turn/end', data: { reason: 'completed' } },
    ]);
    expect(repairEvents(session.events)).toEqual([]);
  });
});
