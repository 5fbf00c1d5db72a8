import type { FollowStopped, WireEvent } from '@strand/protocol';
import { isRecord } from './wire-checks.js';

interface FrameAddress {
  readonly followId: string;
  readonly generation: number;
}

/** A `follow.*` notification, checked at the edge. Event contiguity is checked when applied. */
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
  );

export type ParsedNotification =
  | { readonly kind: 'frame'; readonly frame: FollowFrame }
  /** Not a follow notification; someone else's business. */
  | { readonly kind: 'other' }
  | { readonly kind: 'invalid'; readonly reason: string };

export function parseFollowNotification(method: string, params: unknown): ParsedNotification {
  if (!method.startsWith('follow.')) return { kind: 'other' };
  if (!isRecord(params) || typeof params.followId !== 'string' || typeof params.generation !== 'number') {
    return { kind: 'invalid', reason: `${method}: missing followId or generation` };
  }
  const address: FrameAddress = { followId: params.followId, generation: params.generation };
  switch (method) {
    case 'follow.events':
      return Array.isArray(params.events)
        ? { kind: 'frame', frame: { ...address, kind: 'events', events: params.events as WireEvent[] } }
        : { kind: 'invalid', reason: `${method}: events is not an array` };
    case 'follow.projection':
      return typeof params.key === 'string' &&
        typeof params.seq === 'number' &&
        Object.hasOwn(params, 'value')
        ? {
            kind: 'frame',
            frame: { ...address, kind: 'projection', key: params.key, value: params.value, seq: params.seq },
          }
        : { kind: 'invalid', reason: `${method}: key, value or seq is malformed` };
    case 'follow.state': {
      if (typeof params.live !== 'boolean' || typeof params.busy !== 'boolean')
        return { kind: 'invalid', reason: `${method}: live or busy is not a boolean` };
      const stopped = params.stopped;
      if (stopped !== undefined && !isStopped(stopped))
        return { kind: 'invalid', reason: `${method}: stopped is malformed` };
      return {
        kind: 'frame',
        frame: {
          ...address,
          kind: 'state',
          live: params.live,
          busy: params.busy,
          ...(stopped === undefined ? {} : { stopped }),
        },
      };
    }
    case 'follow.resync':
      return {
        kind: 'frame',
        frame: { ...address, kind: 'resync', reason: typeof params.reason === 'string' ? params.reason : '' },
      };
    default:
      // A notification a newer host added: not ours to interpret.
      return { kind: 'other' };
  }
}

function isStopped(value: unknown): value is FollowStopped {
  return isRecord(value) && value.code === 'SESSION_WRITE_FAILED' && typeof value.message === 'string';
}
