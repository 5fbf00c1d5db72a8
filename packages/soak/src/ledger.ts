import { createHash } from 'node:crypto';

/**
 * A write the host acknowledged (docs/protocol.md, "What is durable when"): a command result that
 * carried its `seq` (rename, selections), a prompt answered `accepted` (its `user/message` holding
 * `text` is stored), or a session the host answered with the id of (create, fork: it is stored).
 */
export interface Acknowledged {
  readonly session: string;
  readonly method: string;
  readonly seq?: number;
  /** What the stored event's `data` must hold (fields the command set), when the command says. */
  readonly data?: Readonly<Record<string, unknown>>;
  /** A prompt's text: some stored `user/message` of the session carries it. */
  readonly text?: string;
  /** The client it was acknowledged to (absent: the soak's own setup), and when its answer arrived (epoch ms). */
  readonly client?: number;
  readonly at?: number;
}

/** An event a client was delivered (a follow snapshot or frame, a page): its seq and content. */
export interface Delivered {
  readonly session: string;
  readonly seq: number;
  readonly hash: string;
  readonly client: number;
}

/** An error reply of the host to `method` (`code` undefined: the reply named none). */
export interface Refusal {
  readonly method: string;
  readonly code: string | undefined;
  readonly message: string;
}

/** Everything the clients were promised, as they recorded it. */
export interface Ledger {
  readonly acknowledged: Acknowledged[];
  readonly delivered: Delivered[];
  readonly refusals: Refusal[];
}

export const emptyLedger = (): Ledger => ({ acknowledged: [], delivered: [], refusals: [] });

/** The fields of an event the wire and the log share. */
export interface EventContent {
  readonly seq: number;
  readonly type: string;
  readonly time: number;
  readonly data: unknown;
}

/** JSON with object keys sorted, so the same content hashes the same whichever side serialized it. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/** The content hash of an event: its type, time and data (the seq is compared beside it). */
export function contentHash(event: EventContent): string {
  return createHash('sha256')
    .update(canonical([event.type, event.time, event.data]))
    .digest('base64url')
    .slice(0, 22);
}
