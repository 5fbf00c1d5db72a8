import { defined } from '@strand/session';
import { errorsOf, isMethodName } from '@strand/protocol';
import { contentHash, type Acknowledged, type EventContent, type Ledger } from './ledger.js';

/** The durable logs as the persistence layer reads them with the host stopped; `undefined`: not stored. */
export type StoredLogs = ReadonlyMap<string, readonly EventContent[] | undefined>;

export type BrokenPromise =
  | {
      readonly promise: 'acknowledged';
      readonly session: string;
      readonly seq?: number;
      readonly detail: string;
    }
  | { readonly promise: 'delivered'; readonly session: string; readonly seq: number; readonly detail: string }
  | { readonly promise: 'refusal'; readonly method: string; readonly detail: string }
  | { readonly promise: 'lock'; readonly detail: string }
  | { readonly promise: 'lease'; readonly session: string; readonly detail: string }
  | { readonly promise: 'crash'; readonly detail: string }
  | { readonly promise: 'reopen'; readonly session: string; readonly detail: string };

export interface Verdict {
  readonly lostAcknowledged: number;
  readonly lostDelivered: number;
  readonly undocumentedRefusals: number;
  readonly locksLeft: number;
  readonly crashes: number;
  readonly notReopened: number;
  /** Every broken promise, in the order checked (acknowledged, delivered, refusals, lock, crash, reopen). */
  readonly broken: readonly BrokenPromise[];
}

export interface CheckInput {
  readonly ledger: Ledger;
  readonly stored: StoredLogs;
  /** What is left of the folder's writer lock after the host stopped (a record, a holder), if anything. */
  readonly lockLeft: readonly string[];
  /** Host processes that ended by themselves (not by the soak's kill or stop), with how. */
  readonly crashes: readonly string[];
  /** Sessions that did not reopen and take a prompt, with why. */
  readonly notReopened: readonly { readonly session: string; readonly reason: string }[];
}

/** In every method's list, but it is how the host answers a bug: never a refusal the soak accepts. */
const BUG = 'RPC_INTERNAL_ERROR';

/** Whether the stored event's data holds every field the command set. */
function holds(data: unknown, expected: Readonly<Record<string, unknown>>): boolean {
  if (data === null || typeof data !== 'object') return false;
  return Object.entries(expected).every(
    ([key, value]) => JSON.stringify((data as Record<string, unknown>)[key]) === JSON.stringify(value),
  );
}

/** Why an acknowledged write is not in the stored logs, or undefined when it is. */
function acknowledgedProblem(ack: Acknowledged, stored: StoredLogs): string | undefined {
  const log = stored.get(ack.session);
  if (log === undefined) return `${ack.method} was acknowledged, but the session is not stored`;
  if (ack.seq !== undefined) {
    const event = log[ack.seq];
    if (event?.seq !== ack.seq)
      return `${ack.method} acknowledged seq ${ack.seq}, which the stored log does not have`;
    if (ack.data !== undefined && !holds(event.data, ack.data))
      return `${ack.method} acknowledged seq ${ack.seq} with ${JSON.stringify(ack.data)}; stored is ${event.type} ${JSON.stringify(event.data)}`;
  }
  const { text } = ack;
  if (
    text !== undefined &&
    !log.some((event) => event.type === 'user/message' && JSON.stringify(event.data).includes(text))
  )
    return `${ack.method} was accepted, but no stored user/message carries "${text}"`;
  return undefined;
}

/**
 * Checks every promise the soak's clients recorded against the durable logs: each acknowledged
 * append is stored at its seq (holding what the command set); each delivered event is stored at
 * its seq with the same content; each refusal's code is one the documented table
 * (`errorsOf(method)`) lists for its method (`RPC_INTERNAL_ERROR`, a bug, never counts as documented); no lock is left; no host crashed; every session reopened. Counts
 * distinct broken promises (a delivery seen by five clients is one event).
 */
export function checkPromises(input: CheckInput): Verdict {
  const broken: BrokenPromise[] = [];
  // Stored logs run from seq 0 without gaps: an event's seq is its index.
  const eventAt = (session: string, seq: number): EventContent | undefined => {
    const event = input.stored.get(session)?.[seq];
    return event?.seq === seq ? event : undefined;
  };

  let lostAcknowledged = 0;
  for (const ack of input.ledger.acknowledged) {
    const detail = acknowledgedProblem(ack, input.stored);
    if (detail === undefined) continue;
    lostAcknowledged++;
    broken.push({
      promise: 'acknowledged',
      session: ack.session,
      ...defined({ seq: ack.seq }),
      detail,
    });
  }

  const seen = new Set<string>();
  let lostDelivered = 0;
  for (const delivered of input.ledger.delivered) {
    const key = `${delivered.session}\u0000${delivered.seq}\u0000${delivered.hash}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const stored = eventAt(delivered.session, delivered.seq);
    const detail =
      stored === undefined
        ? `client ${delivered.client} was delivered seq ${delivered.seq}, which the stored log does not have`
        : contentHash(stored) !== delivered.hash
          ? `client ${delivered.client} was delivered seq ${delivered.seq} with other content than the stored ${stored.type}`
          : undefined;
    if (detail === undefined) continue;
    lostDelivered++;
    broken.push({ promise: 'delivered', session: delivered.session, seq: delivered.seq, detail });
  }

  let undocumentedRefusals = 0;
  for (const refusal of input.ledger.refusals) {
    const documented =
      refusal.code !== undefined &&
      refusal.code !== BUG &&
      isMethodName(refusal.method) &&
      (errorsOf(refusal.method) as readonly string[]).includes(refusal.code);
    if (documented) continue;
    undocumentedRefusals++;
    broken.push({
      promise: 'refusal',
      method: refusal.method,
      detail: `${refusal.method} answered ${refusal.code ?? 'no code'}: ${refusal.message}`,
    });
  }

  for (const left of input.lockLeft) broken.push({ promise: 'lock', detail: left });
  for (const crash of input.crashes) broken.push({ promise: 'crash', detail: crash });
  for (const { session, reason } of input.notReopened)
    broken.push({ promise: 'reopen', session, detail: reason });

  return {
    lostAcknowledged,
    lostDelivered,
    undocumentedRefusals,
    locksLeft: input.lockLeft.length,
    crashes: input.crashes.length,
    notReopened: input.notReopened.length,
    broken,
  };
}
