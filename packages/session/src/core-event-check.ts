import type { CoreEventType } from './core-events.js';
import { isRecord } from './json-shape.js';

/**
 * The fast path of the core vocabulary's checks, run on every append: the verdicts of
 * `CORE_EVENT_SCHEMAS` (`core-events.ts`, the one description), hand-written because the schemas
 * cost about six times as much per event, which the 1,000-event appends of `bench:persistence`
 * would show. `core-event-check.property.test.ts` holds every verdict equal to the schemas' on
 * valid, near-valid and arbitrary data, so a change to one that the other lacks fails there.
 * Each returns undefined when valid, or a short reason.
 */
type Check = (data: Readonly<Record<string, unknown>>) => string | undefined;

const str = (v: unknown): v is string => typeof v === 'string';
const count = (v: unknown): boolean => Number.isSafeInteger(v) && (v as number) >= 0;
const usd = (v: unknown): boolean => typeof v === 'number' && v >= 0 && v <= Number.MAX_SAFE_INTEGER;

function onlyKeys(data: Readonly<Record<string, unknown>>, allowed: readonly string[]): string | undefined {
  for (const key of Object.keys(data)) if (!allowed.includes(key)) return `unexpected key ${key}`;
  return undefined;
}

function content(v: unknown): string | undefined {
  if (str(v)) return undefined;
  if (!Array.isArray(v)) return 'content must be a string or a list of blocks';
  for (const block of v) {
    if (!isRecord(block)) return 'content block must be an object';
    if (block.type === 'text' && str(block.text) && Object.keys(block).length === 2) continue;
    if (block.type === 'image' && str(block.ref) && Object.keys(block).length === 2) continue;
    return 'content block must be {type:"text",text} or {type:"image",ref}';
  }
  return undefined;
}

const empty: Check = (d) => onlyKeys(d, []);
/** `usageSchema`: input and output counts, the other kinds optional counts, other keys let through. */
function usage(v: unknown): string | undefined {
  if (!isRecord(v) || !count(v.input) || !count(v.output)) return 'usage must be {input, output} counts';
  for (const kind of OPTIONAL_USAGE_KINDS) {
    if (v[kind] !== undefined && !count(v[kind])) return `usage.${kind} must be a count`;
  }
  return undefined;
}
const OPTIONAL_USAGE_KINDS = ['cacheCreation', 'cacheRead', 'reasoning'] as const;
const route: Check = (d) =>
  onlyKeys(d, ['provider', 'model', 'reasoningEffort']) ??
  (!str(d.provider) || !str(d.model) ? 'provider and model must be strings' : undefined) ??
  (d.reasoningEffort !== undefined && !str(d.reasoningEffort)
    ? 'reasoningEffort must be a string'
    : undefined);

const CHECKS: Readonly<Record<CoreEventType, Check>> = {
  'turn/start': empty,
  'step/start': empty,
  'step/end': empty,
  'turn/end': (d) =>
    onlyKeys(d, ['reason', 'error']) ??
    (['completed', 'aborted', 'error', 'interrupted'].includes(d.reason as string) ? undefined : 'reason') ??
    (d.error !== undefined && !str(d.error) ? 'error must be a string' : undefined),
  'user/message': (d) =>
    onlyKeys(d, ['content', 'author']) ??
    content(d.content) ??
    (['human', 'agent', 'system'].includes(d.author as string)
      ? undefined
      : 'author must be human, agent or system'),
  'assistant/message': (d) => {
    const keys = onlyKeys(d, ['content', 'toolCalls', 'usage']) ?? content(d.content);
    if (keys !== undefined) return keys;
    if (d.toolCalls !== undefined) {
      if (!Array.isArray(d.toolCalls)) return 'toolCalls must be a list';
      for (const call of d.toolCalls) {
        if (!isRecord(call) || !str(call.id) || !str(call.name) || !str(call.arguments))
          return 'toolCalls entries need id, name, arguments strings';
      }
    }
    return d.usage === undefined ? undefined : usage(d.usage);
  },
  'tool/call': (d) =>
    onlyKeys(d, ['callId', 'name', 'arguments']) ??
    (str(d.callId) && str(d.name) && str(d.arguments)
      ? undefined
      : 'callId, name and arguments must be strings'),
  'tool/result': (d) =>
    onlyKeys(d, ['callId', 'content', 'isError', 'code']) ??
    (str(d.callId) ? undefined : 'callId must be a string') ??
    content(d.content) ??
    (d.isError !== undefined && typeof d.isError !== 'boolean' ? 'isError must be a boolean' : undefined) ??
    (d.code !== undefined && !str(d.code) ? 'code must be a string' : undefined),
  'session/title': (d) => onlyKeys(d, ['title']) ?? (str(d.title) ? undefined : 'title must be a string'),
  'session/cost': (d) => {
    const keys =
      onlyKeys(d, ['usd', 'byModel']) ?? (usd(d.usd) ? undefined : 'usd must be a finite number ≥ 0');
    if (keys !== undefined || d.byModel === undefined) return keys;
    if (!isRecord(d.byModel)) return 'byModel must be an object';
    for (const value of Object.values(d.byModel)) if (!usd(value)) return 'byModel values must be USD';
    return undefined;
  },
  'session/command': (d) =>
    onlyKeys(d, ['name', 'args']) ??
    (str(d.name) ? undefined : 'name must be a string') ??
    (d.args !== undefined && !str(d.args) ? 'args must be a string' : undefined),
  'session/command-output': (d) =>
    onlyKeys(d, ['text', 'stream']) ??
    (str(d.text) ? undefined : 'text must be a string') ??
    (d.stream === 'stdout' || d.stream === 'stderr' ? undefined : 'stream must be stdout or stderr'),
  'session/continued-from': (d) =>
    onlyKeys(d, ['session', 'cut', 'harness']) ??
    (str(d.session) ? undefined : 'session must be a string') ??
    (count(d.cut) ? undefined : 'cut must be a count') ??
    (str(d.harness) ? undefined : 'harness must be a string'),
  'model/selection': route,
  'request/header': route,
  'agent-preset/select': (d) =>
    onlyKeys(d, ['preset']) ??
    (d.preset === null || str(d.preset) ? undefined : 'preset must be a string or null'),
};

/** Returns a reason if `data` is invalid for the core `type`; undefined for valid or non-core types. */
export function checkCoreEventData(type: string, data: unknown): string | undefined {
  if (!Object.hasOwn(CHECKS, type)) return undefined;
  if (!isRecord(data)) return 'data must be an object';
  return CHECKS[type as CoreEventType](data);
}
