import { z } from 'zod';

/**
 * `follow.draft`: the assistant text of the running model step so far, so a viewer can show a
 * reply as it is written. Transient by contract:
 *
 * - `step` is the seq of the step's `step/start`; the host sends a draft only once that event is
 *   durable and already delivered to this follower, so a draft never points past what it holds.
 * - `text` is the step's *accumulated* text (replace, not append): a dropped frame costs nothing.
 * - At most about 20 per second per follow (the host coalesces; the latest text wins).
 * - Never written to the log, never a projection, never indexed. The step's `assistant/message`
 *   is the authority and clears the draft; a new generation (reconnect, resync) starts without one.
 */
export const FollowDraftParamsSchema = z.object({
  followId: z.string(),
  generation: z.number().int().nonnegative(),
  step: z.number().int().nonnegative(),
  text: z.string(),
});

export type FollowDraftParams = z.infer<typeof FollowDraftParamsSchema>;

export const FOLLOW_DRAFT_METHOD = 'follow.draft';

/** Drafts a host sends per follow per second, at most (`1000 / DRAFT_INTERVAL_MS`). */
export const DRAFT_INTERVAL_MS = 50;
