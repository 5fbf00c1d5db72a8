import {
  newSessionHeader,
  Session,
  SessionId,
  type NewSessionHeader,
  type SessionEventInput,
  type SessionHeader,
  type SessionInit,
} from '@strand/session';
import type { SessionPersistence } from '@strand/persistence';

/**
 * Small, readable builders for test logs. Tests hand the inputs to a real `Session`, so seqs,
 * validation and freezing are the production ones — never hand-made envelopes.
 */

/** An unseeded header with a fixed `createdAt`, so test output does not depend on the clock. */
export function testHeader(id: string, init: Omit<NewSessionHeader, 'id'> = {}): SessionHeader {
  return newSessionHeader({ createdAt: 1_700_000_000_000, ...init, id: SessionId(id) });
}

/** A closed turn: prompt, one tool step (call answered), a final answer, `turn/end completed`. */
export function closedTurn(prompt: string, callId = `call-${prompt.length}`): SessionEventInput[] {
  return [
    { type: 'turn/start', data: {} },
    { type: 'user/message', data: { content: prompt, author: 'human' } },
    { type: 'step/start', data: {} },
    {
      type: 'assistant/message',
      data: {
        content: 'let me look',
        toolCalls: [{ id: callId, name: 'read_file', arguments: '{"path":"a.txt"}' }],
      },
    },
    { type: 'tool/call', data: { callId, name: 'read_file', arguments: '{"path":"a.txt"}' } },
    { type: 'tool/result', data: { callId, content: [{ type: 'text', text: 'contents of a.txt' }] } },
    { type: 'step/end', data: {} },
    { type: 'step/start', data: {} },
    {
      type: 'assistant/message',
      data: { content: `answer to ${prompt}`, usage: { input: 120, output: 30 } },
    },
    { type: 'step/end', data: {} },
    { type: 'turn/end', data: { reason: 'completed' } },
  ];
}

/**
 * A turn cut short by a crash: prompt, then a step whose assistant message issued `callIds`, the
 * calls started, none answered, and (when `stepOpen`) the step still open. Crash repair must close
 * it with one `TOOL_OUTCOME_UNKNOWN` result per call, a `step/end` if open, and `turn/end interrupted`.
 */
export function crashedTurn(
  prompt: string,
  callIds: readonly string[],
  options: { stepOpen?: boolean } = {},
): SessionEventInput[] {
  const calls = callIds.map((id) => ({ id, name: 'run', arguments: `{"cmd":"${id}"}` }));
  const events: SessionEventInput[] = [
    { type: 'turn/start', data: {} },
    { type: 'user/message', data: { content: prompt, author: 'human' } },
    { type: 'step/start', data: {} },
    {
      type: 'assistant/message',
      data: { content: 'running', ...(calls.length > 0 ? { toolCalls: calls } : {}) },
    },
    ...calls.map((c) => ({
      type: 'tool/call',
      data: { callId: c.id, name: c.name, arguments: c.arguments },
    })),
  ];
  if (options.stepOpen === false) events.push({ type: 'step/end', data: {} });
  return events;
}

/**
 * Creates `header` in `persistence` and returns a live `Session` that writes through it: each
 * `append` resolves once the persistence acknowledged the batch durable.
 */
export async function createWritingSession(
  persistence: SessionPersistence,
  header: SessionHeader,
): Promise<Session> {
  const { incarnation } = await persistence.create({ header });
  return writingSession(persistence, header, incarnation);
}

/** A live `Session` over an already stored (or pending) session, continuing after `events`. */
export function writingSession(
  persistence: SessionPersistence,
  header: SessionHeader,
  incarnation: string,
  init: Pick<SessionInit, 'events' | 'inheritedEventCount'> = {},
): Session {
  return new Session({
    ...init,
    header,
    incarnation,
    writer: { write: (events) => persistence.append(header.id, events).then(() => undefined) },
  });
}
