import { z } from 'zod';
import { contiguityProblem } from './event-run.js';
import { asOfSeqSchema, present, seqSchema, wireEventSchema } from './session-types.js';
import { FollowDraftParamsSchema } from './draft.js';
import type { Wire } from './wire-type.js';

/*
 * Server → client notifications of a follow, as zod schemas (the types are inferred). Frames
 * carry their generation; a client ignores older ones. Plain objects, like results: a newer host
 * may add a field.
 */

const address = { followId: z.string(), generation: z.number().int() };

/** Why a live session stopped: its durable write failed (`code` is from the error table). */
export const followStoppedSchema = z.object({ code: z.literal('SESSION_WRITE_FAILED'), message: z.string() });
export type FollowStopped = Wire<typeof followStoppedSchema>;

export const NOTIFICATIONS = {
  /** Live events appended after the snapshot's cursor (contiguous seqs). */
  'follow.events': z.object({ ...address, events: z.array(wireEventSchema) }).superRefine((frame, ctx) => {
    const first = frame.events[0];
    if (first === undefined) return;
    if (!seqSchema.safeParse(first.seq).success) {
      ctx.addIssue({ code: 'custom', message: `seq ${first.seq} is not a seq`, path: ['events', 0, 'seq'] });
      return;
    }
    const gap = contiguityProblem(frame.events, first.seq);
    if (gap !== null) ctx.addIssue({ code: 'custom', message: gap, path: ['events'] });
  }),
  /** One key's whole new value at `seq` (`null` is a value: computed to nothing). */
  'follow.projection': z.object({
    ...address,
    key: z.string(),
    value: present<unknown>('value'),
    seq: asOfSeqSchema,
  }),
  /** Session state that is not a projection: live/busy, and why a live session stopped. */
  'follow.state': z.object({
    ...address,
    live: z.boolean(),
    busy: z.boolean(),
    /**
     * Present once the live session stopped on a failed durable write: no event past the durable
     * cut was or will be sent; the host detaches the session when its turn has ended, and the next
     * command reopens it from disk.
     */
    stopped: followStoppedSchema.optional(),
  }),
  /** The follower fell too far behind (or the source changed): re-follow for a new generation. */
  'follow.resync': z.object({ ...address, reason: z.string() }),
  /** The running step's text so far: transient, never in the log (`./draft.ts` says the contract). */
  'follow.draft': FollowDraftParamsSchema,
  /**
   * A subagent child of the followed session (or a deeper descendant, while the sessions between
   * are live on this host) was created or settled — a `subagent.list` row appeared or changed its
   * activity. It says only *that*: the client calls `subagent.list` again for the rows, and never
   * guesses them from events. Sent once the change is durable (the child's creating events are
   * stored before it attaches; its last events before it detaches), in order with this follower's
   * other frames.
   */
  'follow.subagents': z.object(address),
  /**
   * Rows of `session.list` changed (`session.listSubscribe`): these sessions were created,
   * imported, deleted, renamed, prompted, toggled busy, or had their list hints rewritten. Sent
   * once the change is durable; ids are distinct within a frame, a burst is coalesced into few
   * frames. It says only *which*: the client re-reads those rows (`session.list` with `ids`), and
   * an id whose row is gone was deleted (or left the subscription's filter).
   */
  'list.changed': z.object({ subscriptionId: z.string(), ids: z.array(z.string()) }),
} as const satisfies Record<string, z.ZodType>;

type NotificationTable = typeof NOTIFICATIONS;
export type NotificationName = keyof NotificationTable;
type NotificationTypes = { readonly [N in NotificationName]: Wire<NotificationTable[N]> };
/** Every notification's params. An interface so `Notifications[N]` stays an indexed access. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- see above
export interface Notifications extends NotificationTypes {}

export function isNotificationName(method: string): method is NotificationName {
  return Object.hasOwn(NOTIFICATIONS, method);
}
