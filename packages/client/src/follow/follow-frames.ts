import { defined } from '@strand/session';
import {
  describeIssues,
  isNotificationName,
  NOTIFICATIONS,
  type FollowStopped,
  type NotificationName,
  type Notifications,
  type WireEvent,
} from '@strand/protocol';
import { assertNever } from '../assert-never.js';

interface FrameAddress {
  readonly followId: string;
  readonly generation: number;
}

/** A `follow.*` notification, checked at the edge with the protocol's notification schemas. */
export type FollowFrame = FrameAddress &
  (
    | { readonly kind: 'events'; readonly events: readonly WireEvent[] }
    | { readonly kind: 'projection'; readonly key: string; readonly value: unknown; readonly seq: number }
    | {
        readonly kind: 'state';
        readonly live: boolean;
        readonly busy: boolean;
        readonly stopped?: FollowStopped;
      }
    | { readonly kind: 'resync'; readonly reason: string }
    /** A subagent child appeared or settled: list them again (`subagent.list`). */
    | { readonly kind: 'subagents' }
    /**
     * A `follow.events` batch that failed its schema (malformed, or not contiguous): its events
     * cannot be shown, and the window cannot continue past them, so applying it opens a new
     * generation (a frame refused here would only be ignored, and the events lost from view).
     */
    | { readonly kind: 'brokenEvents'; readonly reason: string }
  );

export type ParsedNotification =
  | { readonly kind: 'frame'; readonly frame: FollowFrame }
  /** Not a follow notification; someone else's business. */
  | { readonly kind: 'other' }
  | { readonly kind: 'invalid'; readonly reason: string };

const addressSchema = NOTIFICATIONS['follow.resync'].pick({ followId: true, generation: true });

/** The notifications a follower applies: every `follow.*` frame but the transient draft. */
type FollowFrameName = Exclude<Extract<NotificationName, `follow.${string}`>, 'follow.draft'>;

function isFollowFrameName(method: NotificationName): method is FollowFrameName {
  // Drafts are transient and never reach the follower's state: `FollowDrafts` reads them beside it.
  return method.startsWith('follow.') && method !== 'follow.draft';
}

export function parseFollowNotification(method: string, params: unknown): ParsedNotification {
  if (!method.startsWith('follow.')) return { kind: 'other' };
  // A notification a newer host added: not ours to interpret.
  if (!isNotificationName(method) || !isFollowFrameName(method)) return { kind: 'other' };
  const address = addressSchema.safeParse(params);
  if (!address.success) return { kind: 'invalid', reason: `${method}: missing followId or generation` };
  const parsed = NOTIFICATIONS[method].safeParse(params);
  if (parsed.success) return { kind: 'frame', frame: toFrame(method, params) };
  const reason = `${method}: ${describeIssues(parsed.error, '(params)')}`;
  // A well-addressed batch of its generation that is malformed still tells the follower its window
  // is broken: it travels on as a frame (see `brokenEvents`).
  if (method === 'follow.events')
    return { kind: 'frame', frame: { ...address.data, kind: 'brokenEvents', reason } };
  return { kind: 'invalid', reason };
}

/** The frame of a checked notification, from the values received (a newer host's extra fields left behind). */
function toFrame(method: FollowFrameName, params: unknown): FollowFrame {
  switch (method) {
    case 'follow.events': {
      const { followId, generation, events } = params as Notifications['follow.events'];
      return { followId, generation, kind: 'events', events };
    }
    case 'follow.projection': {
      const { followId, generation, key, value, seq } = params as Notifications['follow.projection'];
      return { followId, generation, kind: 'projection', key, value, seq };
    }
    case 'follow.state': {
      const { followId, generation, live, busy, stopped } = params as Notifications['follow.state'];
      return {
        followId,
        generation,
        kind: 'state',
        live,
        busy,
        ...defined({ stopped }),
      };
    }
    case 'follow.resync': {
      const { followId, generation, reason } = params as Notifications['follow.resync'];
      return { followId, generation, kind: 'resync', reason };
    }
    case 'follow.subagents': {
      const { followId, generation } = params as Notifications['follow.subagents'];
      return { followId, generation, kind: 'subagents' };
    }
    default:
      return assertNever(method, 'follow notification');
  }
}
