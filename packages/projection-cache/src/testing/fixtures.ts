import type { ProjectionUnit } from '@strand/projection';
import { SessionId, SessionSeq, type SessionEvent, type SessionHeader } from '@strand/session';
import type { LogLevel, Logger } from '@strand/session';
import type { CacheSubject } from '../subject.js';

export function header(id = 's1'): SessionHeader {
  return { version: 1, id: SessionId(id), createdAt: 0, isSeeded: false };
}

/** The list facts of a test header (`listIndexContract` and the host's list properties). */
export interface ListHeaderFacts {
  readonly createdAt: number;
  readonly cwd?: string | undefined;
  /** `strand` for a session of Strand's own (no `source`). */
  readonly harness: string;
  readonly parent?: string | undefined;
  readonly subagent: boolean;
}

/** A header carrying exactly these list facts. */
export function listHeader(id: string, facts: ListHeaderFacts): SessionHeader {
  return {
    version: 1,
    id: SessionId(id),
    createdAt: facts.createdAt,
    isSeeded: false,
    ...(facts.cwd === undefined ? {} : { cwd: facts.cwd }),
    ...(facts.harness === 'strand' ? {} : { source: { harness: facts.harness, sourceId: `x-${id}` } }),
    ...(facts.parent === undefined ? {} : { parentSession: SessionId(facts.parent) }),
    ...(facts.subagent ? { origin: 'subagent' as const } : {}),
  };
}

export const subject = (id = 's1', incarnation = 'inc-1'): CacheSubject => ({
  header: header(id),
  incarnation,
});

export const event = (seq: number, type: string, data: unknown): SessionEvent =>
  Object.freeze({ type, seq: SessionSeq(seq), time: 1_000 + seq, data: data as SessionEvent['data'] });

/** A closed turn with a title: four events, so a full fold sits at cut 4 (`asOfSeq` 3). */
export const turnEvents: readonly SessionEvent[] = [
  event(0, 'turn/start', {}),
  event(1, 'session/title', { title: 'Hello' }),
  event(2, 'user/message', { content: 'hi', author: 'human' }),
  event(3, 'turn/end', { reason: 'completed' }),
];

export interface LogEntry {
  readonly level: LogLevel;
  readonly message: string;
  readonly fields: Readonly<Record<string, unknown>>;
}

export type RecordingLogger = Logger & { readonly entries: LogEntry[] };

/** A logger that records every line, at every level, in order. */
export function recordingLogger(): RecordingLogger {
  const entries: LogEntry[] = [];
  const at =
    (level: LogLevel) =>
    (message: string, fields: Readonly<Record<string, unknown>> = {}): void =>
      void entries.push({ level, message, fields });
  return { entries, error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
}

/** A unit whose view throws on a state a healthy fold never produces: stands in for a poisoned row. */
export const strictCounter: ProjectionUnit<{ n: number }, number, 'test/strict'> = {
  key: 'test/strict',
  stateVersion: 1,
  init: () => ({ n: 0 }),
  apply: (state, event) => (event.type === 'turn/start' ? { n: state.n + 1 } : state),
  view: (state) => {
    if (typeof state.n !== 'number') throw new TypeError('poisoned state');
    return state.n;
  },
};
