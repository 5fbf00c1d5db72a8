import { z } from 'zod';
import { checkCoreEventData } from './core-event-check.js';
import type { DeepReadonly } from './deep-readonly.js';

/**
 * The core vocabulary of the log, described once: one zod schema per core event type's `data`,
 * from which the TypeScript types are inferred and against which appends are checked (through
 * `checkCoreEventData`, whose fast path a property test holds equal to these schemas). Domains
 * (e.g. `subagent`) add their own types; types no schema names stay opaque everywhere.
 *
 * The schemas are strict: a key the vocabulary does not name is refused on append, so what a log
 * holds is exactly what readers are typed for.
 */

const textBlock = z.strictObject({ type: z.literal('text'), text: z.string() });
const imageBlock = z.strictObject({ type: z.literal('image'), ref: z.string() });
/** A message's content: plain text, or text and image blocks (an image names its attachment). */
export const messageContentSchema = z.union([z.string(), z.array(z.union([textBlock, imageBlock]))]);

/** A count of tokens. */
const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/**
 * One model response's tokens, in one meaning for every harness: `input` is fresh, uncached
 * input; cache writes and reads are apart (they price 1.25× and 0.1× of input); `output` includes
 * any reasoning, of which `reasoning` says how much (a part of output, never added to it). Logs
 * written before the kinds existed hold `{input, output}` and are read as such. Lenient on purpose
 * (not strict): a newer build may add a kind, and older readers still sum the ones they know.
 */
export const usageSchema = z.object({
  input: count,
  output: count,
  cacheCreation: count.optional(),
  cacheRead: count.optional(),
  reasoning: count.optional(),
});
/** US dollars: finite and ≥ 0. */
const usd = z.number().min(0).max(Number.MAX_SAFE_INTEGER);

export const USAGE_KINDS = ['input', 'output', 'cacheCreation', 'cacheRead', 'reasoning'] as const;
export type UsageKind = (typeof USAGE_KINDS)[number];

const route = z.strictObject({
  provider: z.string(),
  model: z.string(),
  reasoningEffort: z.string().optional(),
});

export const TURN_END_REASONS = ['completed', 'aborted', 'error', 'interrupted'] as const;
export const MESSAGE_AUTHORS = ['human', 'agent', 'system'] as const;
export const COMMAND_OUTPUT_STREAMS = ['stdout', 'stderr'] as const;

export const CORE_EVENT_SCHEMAS = {
  'turn/start': z.strictObject({}),
  'turn/end': z.strictObject({ reason: z.enum(TURN_END_REASONS), error: z.string().optional() }),
  'step/start': z.strictObject({}),
  'step/end': z.strictObject({}),
  'user/message': z.strictObject({ content: messageContentSchema, author: z.enum(MESSAGE_AUTHORS) }),
  'assistant/message': z.strictObject({
    content: messageContentSchema,
    toolCalls: z.array(z.object({ id: z.string(), name: z.string(), arguments: z.string() })).optional(),
    usage: usageSchema.optional(),
  }),
  'tool/call': z.strictObject({ callId: z.string(), name: z.string(), arguments: z.string() }),
  'tool/result': z.strictObject({
    callId: z.string(),
    content: messageContentSchema,
    isError: z.boolean().optional(),
    code: z.string().optional(),
  }),
  'session/title': z.strictObject({ title: z.string() }),
  /**
   * What the harness itself reported the session cost so far (Claude Code's `cost-state`),
   * cumulative — the latest counts — with its split by model where it gave one. Kept beside
   * Strand's own figure, which is priced from the tokens at read time and is never logged.
   */
  'session/cost': z.strictObject({ usd, byModel: z.record(z.string(), usd).optional() }),
  /**
   * A command the person ran in the harness itself (a slash command: `/compact`, `/model opus`),
   * not text written to the model: `name` without its slash, `args` as typed. It opens a turn as
   * a prompt does (what the harness does about it — a custom command's expansion, the model's
   * answer — belongs to it), but it is no prompt: units that count prompts do not count it.
   */
  'session/command': z.strictObject({ name: z.string(), args: z.string().optional() }),
  /**
   * What a command printed, as the harness showed it (terminal escapes kept: readers render or
   * strip them). An event of its own after the command rather than a field of it: harnesses
   * write the output as a record of its own after the command's, and an importer maps each
   * record to its own events without changing one already written (the prefix law), so the
   * output cannot be attached to the command once it arrives. It belongs to the last
   * `session/command` before it.
   */
  'session/command-output': z.strictObject({ text: z.string(), stream: z.enum(COMMAND_OUTPUT_STREAMS) }),
  /**
   * The session continues a Strand session exported to a harness (`strand export --to`): the
   * events before this one are that export, `session`'s log to `cut` (its last seq) as the
   * harness `harness` holds it; what follows is what the harness appended when it resumed the
   * file. An importer writes it where the harness's first own record begins, so it sits right
   * after the exported prefix.
   */
  'session/continued-from': z.strictObject({ session: z.string(), cut: count, harness: z.string() }),
  'model/selection': route,
  'request/header': route,
  'agent-preset/select': z.strictObject({ preset: z.string().nullable() }),
} as const;

export type CoreEventType = keyof typeof CORE_EVENT_SCHEMAS;
export const CORE_EVENT_TYPES = Object.keys(CORE_EVENT_SCHEMAS) as readonly CoreEventType[];

/** Each core type's `data`, read-only all the way down, as the schemas describe it. */
export type CoreEventDataMap = {
  readonly [T in CoreEventType]: DeepReadonly<z.output<(typeof CORE_EVENT_SCHEMAS)[T]>>;
};
export type MessageContent = DeepReadonly<z.output<typeof messageContentSchema>>;
export type UsageRecord = DeepReadonly<z.output<typeof usageSchema>>;
export type TurnEndReason = (typeof TURN_END_REASONS)[number];

/** A core event as a reader sees it: the type and its typed data, one member per core type. */
export type KnownCoreEvent = {
  readonly [T in CoreEventType]: { readonly type: T; readonly data: CoreEventDataMap[T] };
}[CoreEventType];

export const isCoreEventType = (type: string): type is CoreEventType =>
  Object.hasOwn(CORE_EVENT_SCHEMAS, type);

/**
 * A schema's verdict on `data` for the core `type`: undefined when valid (or not a core type), or
 * a short reason naming the first problem's place. The slow, exact path: appends go through
 * `checkCoreEventData`, which answers the same (a property test holds the two equal).
 */
export function schemaVerdict(type: string, data: unknown): string | undefined {
  if (!isCoreEventType(type)) return undefined;
  const result = CORE_EVENT_SCHEMAS[type].safeParse(data);
  if (result.success) return undefined;
  const issue = result.error.issues[0]!;
  const where = issue.path.length === 0 ? 'data' : issue.path.join('.');
  return `${where}: ${issue.message}`;
}

/**
 * The event as a core event, typed by its `type`, when it is one and its data matches the
 * vocabulary; undefined for a type no schema names (a domain's, a newer build's) or data that
 * does not match — the reader then shows it opaque. For readers of events from the wire or an
 * older file; the same object is returned, never a copy.
 */
export function readCoreEvent<E extends { readonly type: string; readonly data: unknown }>(
  event: E,
): (Omit<E, 'type' | 'data'> & KnownCoreEvent) | undefined {
  if (!isCoreEventType(event.type) || checkCoreEventData(event.type, event.data) !== undefined)
    return undefined;
  return event as unknown as Omit<E, 'type' | 'data'> & KnownCoreEvent;
}

/**
 * A command as the person typed it: `/compact`, `/model opus` (no trailing space without args).
 * Every reader that shows or indexes a `session/command` spells it through this one rule.
 */
export function commandLine(command: CoreEventDataMap['session/command']): string {
  return command.args === undefined ? `/${command.name}` : `/${command.name} ${command.args}`;
}

/**
 * The text of message content: text blocks on their own lines, and an image named by its
 * attachment ref (`[image <ref>]`) — or left out, for readers that want words only (the search
 * index).
 */
export function messageText(content: MessageContent, images: 'named' | 'left out' = 'named'): string {
  if (typeof content === 'string') return content;
  const parts: string[] = [];
  for (const block of content) {
    if (block.type === 'text') parts.push(block.text);
    else if (images === 'named') parts.push(`[image ${block.ref}]`);
  }
  return parts.join('\n');
}
