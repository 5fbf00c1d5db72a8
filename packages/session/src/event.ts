import type { SessionSeq } from './ids.js';
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

export type MessageContent =
  | string
  | readonly (
      | { readonly type: 'text'; readonly text: string }
      | { readonly type: 'image'; readonly ref: string }
    )[];

export type TurnEndReason = 'completed' | 'aborted' | 'error' | 'interrupted';

/** The core vocabulary owned by `session`; domains (e.g. `subagent`) add their own types. */
export interface CoreEventDataMap {
  'turn/start': Record<string, never>;
  'turn/end': { readonly reason: TurnEndReason; readonly error?: string };
  'step/start': Record<string, never>;
  'step/end': Record<string, never>;
  'user/message': { readonly content: MessageContent; readonly author: 'human' | 'agent' | 'system' };
  'assistant/message': {
    readonly content: MessageContent;
    readonly toolCalls?: readonly {
      readonly id: string;
      readonly name: string;
      readonly arguments: string;
    }[];
    readonly usage?: { readonly input: number; readonly output: number };
  };
  'tool/call': { readonly callId: string; readonly name: string; readonly arguments: string };
  'tool/result': {
    readonly callId: string;
    readonly content: MessageContent;
    readonly isError?: boolean;
    readonly code?: string;
  };
  'session/title': { readonly title: string };
  'model/selection': { readonly provider: string; readonly model: string; readonly reasoningEffort?: string };
  'request/header': { readonly provider: string; readonly model: string; readonly reasoningEffort?: string };
  'agent-preset/select': { readonly preset: string | null };
}

export type CoreEventType = keyof CoreEventDataMap;
export type CoreEvent<T extends CoreEventType = CoreEventType> = SessionEvent<T, CoreEventDataMap[T]>;

/** Narrows an event to a core type. The data was validated on append, so the cast is safe. */
export function isEventOfType<T extends CoreEventType>(event: SessionEvent, type: T): event is CoreEvent<T> {
  return event.type === type;
}
