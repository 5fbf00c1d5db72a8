import { z } from 'zod';
import { SESSION_HEADER_FIELDS } from '@strand/session';
import type { Wire } from './wire-type.js';

/**
 * Session data as it crosses the wire, described once as zod schemas; the types are inferred.
 * The header reuses the `session` package's fields (a browser package); `host` produces the rest
 * from the session types, which the compiler checks.
 *
 * These describe what a host *sends*: they are plain (not strict) objects, so a newer host's
 * extra fields pass, and a client checks a value with them and keeps the value it received.
 */

/** JSON as it crosses the wire. Recursive, so written as a type; values come out of `JSON.parse`. */
export type WireJson =
  | null
  | boolean
  | number
  | string
  | readonly WireJson[]
  | { readonly [key: string]: WireJson };

/**
 * A value that must be present, `null` included. A frame is decoded by `JSON.parse`, so whatever
 * is present is JSON already; only a missing key (`undefined`) is refused. Not re-walked: an
 * event's `data` can be large and a snapshot carries thousands of events.
 */
export function present<T>(what: string): z.ZodType<T> {
  return z.custom<T>((value) => value !== undefined, { message: `${what} is missing` });
}

/** An event index or a count of events: an integer ≥ 0. */
export const seqSchema = z.number().int().min(0);
/** `asOfSeq`: the seq of the last event folded, −1 for a log with no events. */
export const asOfSeqSchema = z.number().int().min(-1);

/**
 * A session's header: the `session` package's fields (the one description), in a plain object so
 * a newer host's extra fields pass.
 */
export const wireSessionHeaderSchema = z.object(SESSION_HEADER_FIELDS);
export type WireSessionHeader = Wire<typeof wireSessionHeaderSchema>;

/**
 * One event. Its `seq` is only typed here: an event never travels alone, and every run of them
 * (a snapshot window, a page, a live frame) is checked contiguous from a checked integer start,
 * which makes each seq an integer ≥ 0 — at a fraction of the cost of checking it per event.
 */
export const wireEventSchema = z.object({
  type: z.string(),
  seq: z.number(),
  time: z.number(),
  data: present<WireJson>('data'),
});
export type WireEvent = Wire<typeof wireEventSchema>;

/** Client values by projection key (each key's value is its unit's client view). */
export const projectionValueMapSchema = z.record(z.string(), z.unknown());
export type ProjectionValueMap = Wire<typeof projectionValueMapSchema>;

/** Partial, possibly stale values: a missing key means "unknown". */
export const projectionHintsSchema = z.object({
  asOfSeq: asOfSeqSchema,
  values: projectionValueMapSchema,
});
export type ProjectionHints = Wire<typeof projectionHintsSchema>;

/** Complete for this host at `asOfSeq`: a missing key means "capability absent". */
export const projectionBaselineSchema = z.object({
  asOfSeq: asOfSeqSchema,
  values: projectionValueMapSchema,
});
export type ProjectionBaseline = Wire<typeof projectionBaselineSchema>;

// The client views of the built-in units are the projection package's own types (it is
// browser-safe); re-exported so clients import only this package.
export type {
  TitleView as TitleValue,
  ListMetadataView as ListMetadataValue,
  ModelRoute as ModelRouteValue,
  ModelSelectionView as ModelSelectionValue,
  AgentPresetView as AgentPresetValue,
  UsageView as UsageValue,
} from '@strand/projection';

/** The client view of `subagentTiming`: settled active time plus the open turn, if any. */
export const subagentTimingValueSchema = z.object({
  settledMs: z.number(),
  settledTurns: z.number(),
  active: z.object({ since: z.number(), through: z.number() }).nullable(),
});
export type SubagentTimingValue = Wire<typeof subagentTimingValueSchema>;

export const subagentIdentityValueSchema = z
  .discriminatedUnion('mode', [
    z.object({ mode: z.literal('one-shot'), label: z.string().optional(), seq: seqSchema }),
    z.object({ mode: z.literal('continuable'), label: z.string(), seq: seqSchema }),
  ])
  .nullable();
export type SubagentIdentityValue = Wire<typeof subagentIdentityValueSchema>;

const oneShotChildRow = z.object({
  kind: z.literal('child'),
  id: z.string(),
  activity: z.enum(['running', 'inactive']),
  hasChildren: z.boolean(),
  mode: z.literal('one-shot'),
  label: z.string().optional(),
});
const continuableChildRow = oneShotChildRow.extend({ mode: z.literal('continuable'), label: z.string() });
const diagnosticRow = z.object({
  kind: z.literal('diagnostic'),
  id: z.string(),
  reason: z.enum(['corrupt', 'unsupported', 'unavailable']),
});

/**
 * A row of a subagent listing (the subagent listing contract's `SubagentListEntry`). A `child`
 * row carries the descriptor's strong mode/label contract and no `seq`; `unsupported` stays in
 * the type but is never produced.
 */
export const subagentListEntrySchema = z.union([oneShotChildRow, continuableChildRow, diagnosticRow]);
/** A row of `subagent.list` on the wire. */
export type SubagentListEntry = Wire<typeof subagentListEntrySchema>;

/**
 * The same row generic in its id type, so the subagent domain uses this one shape with its
 * branded `SessionId` and the wire with `string`. Derived from the schema's type, never restated.
 */
export type SubagentListEntryOf<Id extends string> = SubagentListEntry extends infer Row
  ? Row extends unknown
    ? { readonly [K in keyof Row]: K extends 'id' ? Id : Row[K] }
    : never
  : never;

/** A descendant row adds where it hangs in the tree. */
const treePosition = { parentId: z.string(), depth: seqSchema };
export const subagentTreeEntrySchema = z.union([
  oneShotChildRow.extend(treePosition),
  continuableChildRow.extend(treePosition),
  diagnosticRow.extend(treePosition),
]);
export type SubagentTreeEntry = Wire<typeof subagentTreeEntrySchema>;
