import { PersistenceError } from '@strand/persistence';
import { isSessionId, SessionSeq, type SessionId, defined } from '@strand/session';

/**
 * The channel every durable write of events is announced on, with `pg_notify` inside the
 * writing transaction: PostgreSQL delivers the notice only if, and only when, it commits.
 */
export const APPENDS_CHANNEL = 'strand_appends';

/**
 * The payload of one notice, as JSON exactly in this key order:
 * `{"id":…,"incarnation":…,"from":…,"count":…,"revision":…}`. One notice per committed write —
 * an append, a group of appends coalesced into one transaction, the first write of a lazily
 * created session, a seeded prefix, repair closers. A notice says "events `[from, from + count)`
 * were committed"; the log stays the authority, and a follower repairs gaps by seq.
 */
export interface AppendNotice {
  readonly id: SessionId;
  /** The session's incarnation: a notice of another incarnation is about another log. */
  readonly incarnation: string;
  /** The seq of the first event written. */
  readonly from: SessionSeq;
  /** How many events were written (≥ 1). */
  readonly count: number;
  /** The opaque revision after the write — the same token `revisionOf` returns. */
  readonly revision: string;
}

/** The payload text of a notice (the writer's side; `JSON.stringify` keeps the key order). */
export function formatAppendNotice(notice: AppendNotice): string {
  return JSON.stringify({
    id: notice.id,
    incarnation: notice.incarnation,
    from: notice.from,
    count: notice.count,
    revision: notice.revision,
  });
}

/**
 * Reads a notice payload. Anything that is not a well-formed notice (a foreign sender on the
 * channel, a newer writer's format) throws `PERSISTENCE_FORMAT_UNSUPPORTED`: a listener reports
 * it and falls back to reading the log.
 */
export function parseAppendNotice(payload: string): AppendNotice {
  let raw: unknown;
  try {
    raw = JSON.parse(payload);
  } catch (error) {
    throw unreadable(payload, error);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw unreadable(payload);
  const { id, incarnation, from, count, revision } = raw as Record<string, unknown>;
  if (
    !isSessionId(id) ||
    typeof incarnation !== 'string' ||
    !Number.isSafeInteger(from) ||
    (from as number) < 0 ||
    !Number.isSafeInteger(count) ||
    (count as number) < 1 ||
    typeof revision !== 'string'
  ) {
    throw unreadable(payload);
  }
  return Object.freeze({
    id,
    incarnation,
    from: SessionSeq(from as number),
    count: count as number,
    revision,
  });
}

function unreadable(payload: string, cause?: unknown): PersistenceError {
  const shown = payload.length > 200 ? `${payload.slice(0, 200)}…` : payload;
  return new PersistenceError('PERSISTENCE_FORMAT_UNSUPPORTED', `unreadable append notice: ${shown}`, {
    ...defined({ cause }),
  });
}
