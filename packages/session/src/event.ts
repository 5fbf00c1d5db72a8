import type { SessionSeq } from './ids.js';
import type { CoreEventDataMap, CoreEventType } from './core-events.js';
import type { JsonValue } from './json.js';

/**
 * The event envelope. `seq` is the event's index in its log; `time` is integer ms; `data` is
 * lossless JSON and deep-frozen once appended. Unknown types are kept opaque: stored, returned by
 * reads, offered to projection units (which ignore them), never an error.
 */
export interface SessionEvent<Type extends string = string, Data = JsonValue> {
  readonly type: Type;
  readonly seq: SessionSeq;
  readonly time: number;
  readonly data: Data;
}

/** What a writer hands to `Session.append`: the session assigns `seq` and (by default) `time`. */
export interface SessionEventInput {
  readonly type: string;
  readonly data: unknown;
  readonly time?: number;
}

export type CoreEvent<T extends CoreEventType = CoreEventType> = SessionEvent<T, CoreEventDataMap[T]>;

/** Narrows an event to a core type. The data was validated on append, so the cast is safe. */
export function isEventOfType<T extends CoreEventType>(event: SessionEvent, type: T): event is CoreEvent<T> {
  return event.type === type;
}
