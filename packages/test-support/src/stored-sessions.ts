import { persistenceWriter, type SessionPersistence } from '@strand/persistence';
import {
  Session,
  SessionId,
  newSessionHeader,
  type NewSessionHeader,
  type SessionEventInput,
} from '@strand/session';

/** Closed turn number `n`: a prompt and its answer with usage, the shape the wire and query tests read. */
export function turn(n: number): SessionEventInput[] {
  return [
    { type: 'turn/start', data: {} },
    { type: 'user/message', data: { content: `prompt number ${n}`, author: 'human' } },
    { type: 'assistant/message', data: { content: `answer ${n}`, usage: { input: 10, output: 5 } } },
    { type: 'turn/end', data: { reason: 'completed' } },
  ];
}

export interface StoredSessionOptions {
  /** Header fields besides the id (default `createdAt: 1_000`). */
  readonly header?: Partial<NewSessionHeader>;
  /** Events appended after the turns. */
  readonly extra?: readonly SessionEventInput[];
}

/**
 * Writes a stored session through `persistence`: the title `Title of <id>`, `turns` closed turns,
 * then `extra`. Returns the writing `Session` (not attached to any store: the caller decides).
 */
export async function writeStoredSession(
  persistence: SessionPersistence,
  id: string,
  turns: number,
  options: StoredSessionOptions = {},
): Promise<Session> {
  const sid = SessionId(id);
  const header = newSessionHeader({ createdAt: 1_000, ...options.header, id: sid });
  const { incarnation } = await persistence.create({ header });
  const session = new Session({ header, incarnation, writer: persistenceWriter(persistence, sid) });
  await session.append({ type: 'session/title', data: { title: `Title of ${id}` } });
  for (let n = 0; n < turns; n++) await session.append(turn(n));
  if (options.extra !== undefined && options.extra.length > 0) await session.append(options.extra);
  return session;
}
