import { harnessNameSchema } from '@strand/session';
import { lastActivityAt } from '@strand/projection';
import { z } from 'zod';
import { contiguityProblem } from './event-run.js';
import {
  projectionBaselineSchema,
  projectionHintsSchema,
  seqSchema,
  subagentListEntrySchema,
  subagentTreeEntrySchema,
  wireEventSchema,
  wireSessionHeaderSchema,
} from './session-types.js';
import { EXPORT_FORMATS, EXPORT_HARNESSES } from './export.js';
import { SHARE_METHODS, type ShareAccess } from './share.js';
import type { Wire } from './wire-type.js';

/*
 * Every method's params and result as zod schemas: the one description of the wire. The host
 * parses params with `METHODS[m].params`; a client checks results with `METHODS[m].result`;
 * the types below are inferred from them.
 *
 * Params are strict objects (an unknown key is refused, so a typo is an error rather than
 * ignored) and carry the host's size limits. Results are plain objects: a newer host may add a
 * field, and a client checks what it received without stripping it.
 */

// Only the type here: the rules of a session id (and whether a host can store it) are checked by
// the host after parsing, so every malformed id is SESSION_ID_INVALID rather than invalid params.
const sessionIdParam = z.string();
const seqParam = seqSchema;
const routeParams = {
  provider: z.string().min(1).max(200),
  model: z.string().min(1).max(200),
  reasoningEffort: z.string().min(1).max(50).optional(),
};

/** One row of `session.list`. */
export const sessionListRowSchema = z.object({
  id: z.string(),
  header: wireSessionHeaderSchema,
  /** Attached (an agent or live session) on this host. */
  live: z.boolean(),
  /** A turn is in progress (here, or — with `ownedElsewhere` — possibly on the host that owns it). */
  busy: z.boolean(),
  /**
   * Another host holds this session's lease (a shared-database deployment): it runs the agent,
   * commands that drive one are refused here with `SESSION_OWNED_ELSEWHERE`. Absent: not known
   * to be owned elsewhere (always absent on a single host).
   */
  ownedElsewhere: z.boolean().optional(),
  /** List-relevant projection hints; absent keys are unknown. */
  hints: projectionHintsSchema.optional(),
});
export type SessionListRow = Wire<typeof sessionListRowSchema>;

export const searchHitSchema = z.object({
  seq: seqSchema,
  /** At most 200 characters; matched terms are wrapped in U+0002 … U+0003. */
  snippet: z.string(),
});
export type SearchHit = Wire<typeof searchHitSchema>;
export const searchResultSchema = z.object({
  sessionId: z.string(),
  /**
   * The session's title as the host's search index knows it (from durable events), `null` when it
   * has none or the index keeps no titles; a title match ranks the session first.
   */
  title: z.string().nullable(),
  /** Best first; each hit's `seq` is the event it is in (open the session there). */
  hits: z.array(searchHitSchema),
  /*
   * The session's header facts as the search index filed them, so a result is described without
   * reading the session (absent: the header has none, or an older host did not send them): its
   * `cwd`, its harness (`source.harness`, `strand` for Strand's own), a subagent's
   * `parentSession` and `origin` (`'subagent'`), and a fork's `forkedFrom`.
   */
  cwd: z.string().optional(),
  harness: z.string().optional(),
  parentSession: z.string().optional(),
  origin: z.string().optional(),
  forkedFrom: z.string().optional(),
});
export type SearchResult = Wire<typeof searchResultSchema>;

/**
 * Where a session came from, as search and usage narrow by it: a header's `source.harness`, or
 * `strand` for Strand's own sessions (no `source`). Any harness name (an open vocabulary): a client
 * may ask for a harness a newer importer wrote, which an older client's menus do not list.
 */
export const harnessFilterSchema = harnessNameSchema;

/**
 * The opening snapshot of a follow generation: always delivered before any frame of it. Its tail
 * window is exactly events `[firstSeq, cursor)` and its baseline is every client-visible unit of
 * the host at `cursor − 1`; the schema refuses a snapshot that breaks either.
 */
export const followSnapshotSchema = z
  .object({
    followId: z.string(),
    generation: z.number().int(),
    header: wireSessionHeaderSchema,
    inheritedEventCount: seqSchema,
    /** The log length at the snapshot. */
    cursor: seqSchema,
    /** The tail window: events `[firstSeq, cursor)`. */
    firstSeq: seqSchema,
    events: z.array(wireEventSchema),
    /** Every client-visible unit of this host at `cursor − 1`. */
    baseline: projectionBaselineSchema,
    live: z.boolean(),
    busy: z.boolean(),
  })
  .superRefine((snapshot, ctx) => {
    const problem = snapshotCutProblem(snapshot);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem.message, path: problem.path });
  });
export type FollowSnapshot = Wire<typeof followSnapshotSchema>;

function snapshotCutProblem(snapshot: {
  readonly cursor: number;
  readonly firstSeq: number;
  readonly events: readonly { readonly seq: number }[];
  readonly baseline: { readonly asOfSeq: number };
}): { readonly path: string[]; readonly message: string } | null {
  const { cursor, firstSeq, events } = snapshot;
  if (firstSeq > cursor)
    return { path: ['firstSeq'], message: `firstSeq ${firstSeq} is beyond cursor ${cursor}` };
  if (events.length !== cursor - firstSeq) {
    const message = `expected ${cursor - firstSeq} events to reach cursor ${cursor}, got ${events.length}`;
    return { path: ['events'], message };
  }
  const gap = contiguityProblem(events, firstSeq);
  if (gap !== null) return { path: ['events'], message: gap };
  if (snapshot.baseline.asOfSeq !== cursor - 1) {
    const message = `expected baseline asOfSeq ${cursor - 1}, got ${snapshot.baseline.asOfSeq}`;
    return { path: ['baseline', 'asOfSeq'], message };
  }
  return null;
}

/** A run of events starting at `firstSeq`: a page, whose events are contiguous from it. */
const pageResultSchema = z
  .object({ firstSeq: seqSchema, events: z.array(wireEventSchema), cursor: seqSchema })
  .superRefine((page, ctx) => {
    const gap = contiguityProblem(page.events, page.firstSeq);
    if (gap !== null) ctx.addIssue({ code: 'custom', message: gap, path: ['events'] });
  });

export const modelCatalogEntrySchema = z.object({
  provider: z.string(),
  model: z.string(),
  label: z.string(),
  reasoningEfforts: z.array(z.string()).optional(),
  /** The route a session that never selected a model runs on (one entry of the catalog). */
  isDefault: z.boolean().optional(),
});
export type ModelCatalogEntry = Wire<typeof modelCatalogEntrySchema>;
export const presetCatalogEntrySchema = z.object({
  name: z.string(),
  description: z.string(),
  allowedTools: z.array(z.string()),
  defaultModel: z.object({ provider: z.string(), model: z.string() }).optional(),
});
export type PresetCatalogEntry = Wire<typeof presetCatalogEntrySchema>;

const appendedResult = z.object({ seq: seqSchema });

export const USAGE_GROUPS = ['day', 'week', 'month', 'session', 'project', 'model', 'harness'] as const;
export type UsageGroup = (typeof USAGE_GROUPS)[number];

/** USD per million tokens of each kind. */
const ratesSchema = z.strictObject({
  input: z.number().min(0).max(1e6),
  output: z.number().min(0).max(1e6),
  cacheRead: z.number().min(0).max(1e6),
  cacheWrite: z.number().min(0).max(1e6),
});

/** Token figures under the names people's scripts already use for them. */
const usageFiguresSchema = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  cacheCreationTokens: z.number(),
  cacheReadTokens: z.number(),
  /** A part of `outputTokens`, never added to `totalTokens`. */
  reasoningTokens: z.number(),
  /** Fresh input + output + cache writes + cache reads. */
  totalTokens: z.number(),
  /** USD; null when no token of it is priced (an unpriced model shows "—", never 0). */
  totalCost: z.number().nullable(),
  /** Models with tokens here that the price table does not price; `totalCost` leaves them out. */
  unpricedModels: z.array(z.string()),
  /**
   * USD the harnesses themselves reported for these tokens (Claude Code's `cost-state`), beside
   * `totalCost`; null when none reported any (absent from a host older than it).
   */
  reportedCost: z.number().nullable().optional(),
});
export const usageRowSchema = usageFiguresSchema.extend({
  key: z.string(),
  label: z.string(),
  sessions: z.number(),
  models: z.array(z.string()),
});
export type UsageRow = Wire<typeof usageRowSchema>;

/** `session.list`'s page size when a cursor or a filter is given and no `limit`. */
export const DEFAULT_LIST_PAGE_LIMIT = 200;
/** `session.list`'s largest page when a cursor or a filter is given. */
export const MAX_LIST_PAGE_LIMIT = 1_000;
/** The deprecated whole-list call's largest `limit` (no cursor, no filter). */
export const MAX_WHOLE_LIST_LIMIT = 100_000;

/** When a list row was last active: the `session.list` order's key (`lastActivityAt`, projection). */
export function lastActivityOf(row: Pick<SessionListRow, 'header' | 'hints'>): number {
  return lastActivityAt(row.header.createdAt, row.hints?.values.listMetadata);
}

/**
 * A `subagent.list` descendants row a harness export writes as a child file: a readable direct
 * child (depth 1). The others — a child's own subagents, a damaged row — it only names as left out.
 */
export function isDirectChildRow(row: { readonly kind: string; readonly depth?: number }): boolean {
  return row.kind === 'child' && (row.depth ?? 1) === 1;
}

/**
 * A `session.list` call that pages: it names a cursor or any filter. A call with neither keeps the
 * deprecated meaning (the whole list up to `limit`) for one minor version.
 */
export function isPagedListCall(params: {
  readonly cursor?: string | undefined;
  readonly cwd?: string | undefined;
  readonly projectName?: string | undefined;
  readonly harness?: string | undefined;
  readonly parent?: string | null | undefined;
  readonly busy?: boolean | undefined;
  readonly titlePrefix?: string | undefined;
  readonly ids?: readonly string[] | undefined;
}): boolean {
  return (
    params.cursor !== undefined ||
    params.ids !== undefined ||
    params.cwd !== undefined ||
    params.projectName !== undefined ||
    params.harness !== undefined ||
    params.parent !== undefined ||
    params.busy !== undefined ||
    params.titlePrefix !== undefined
  );
}

/**
 * A project by name: sessions whose header `cwd`'s last folder name is this (`strand` matches
 * `/home/dev/strand` and `C:\src\strand\`: trailing separators dropped, split at `/` or `\`;
 * `projectNameOf` of @strand/session). A name, so no separator. `session.list` and
 * `session.search` take it alike.
 */
const projectNameParam = z
  .string()
  .min(1)
  .max(1000)
  .regex(/^[^/\\]+$/, 'is a folder name: it has no / or \\');

/** What `session.list` and `session.listSubscribe` narrow by (every field absent: any). */
const listFilterParams = {
  /** Only sessions whose header `cwd` is exactly this project folder. */
  cwd: z.string().min(1).max(4096).optional(),
  /** Only sessions whose header `cwd`'s last folder name is this (`projectNameParam`). */
  projectName: projectNameParam.optional(),
  /** Only sessions from this harness (`strand`: Strand's own, no header `source`). */
  harness: harnessFilterSchema.optional(),
  /** `null`: top-level sessions only; an id: that session's subagent children. */
  parent: sessionIdParam.max(128).nullable().optional(),
  /** Only rows whose `busy` is this. */
  busy: z.boolean().optional(),
  /** Only rows whose `title` hint starts with this (case-sensitive). */
  titlePrefix: z.string().min(1).max(1000).optional(),
};

/** Every method: its params and its result. Adding a method means adding it here first. */
export const METHODS = {
  'session.list': {
    share: 'filtered',
    params: z
      .strictObject({
        /**
         * Rows per page: 200 by default and at most 1,000 when a `cursor` or a filter is given.
         * Without either (deprecated): every row up to `limit` (≤ 100,000, all when absent).
         */
        limit: z.number().int().min(1).max(MAX_WHOLE_LIST_LIMIT).optional(),
        /** A previous page's `nextCursor`, under the same filter. */
        cursor: z.string().min(1).max(2000).optional(),
        ...listFilterParams,
        /**
         * Only these sessions (a `list.changed` frame's ids, re-read): the rows of those that exist
         * and pass the other filters, in the list order, all in one page (no cursor, no `nextCursor`).
         */
        ids: z.array(sessionIdParam.min(1).max(128)).min(1).max(MAX_LIST_PAGE_LIMIT).optional(),
      })
      .superRefine((params, ctx) => {
        if (params.limit !== undefined && params.limit > MAX_LIST_PAGE_LIMIT && isPagedListCall(params))
          ctx.addIssue({
            code: 'custom',
            path: ['limit'],
            message: `must be at most ${MAX_LIST_PAGE_LIMIT} with a cursor or a filter`,
          });
        if (params.ids !== undefined && params.cursor !== undefined)
          ctx.addIssue({ code: 'custom', path: ['cursor'], message: 'is not taken with ids (one page)' });
      }),
    /** `nextCursor` when more rows follow the page (in the same order, under the same filter). */
    result: z.object({ sessions: z.array(sessionListRowSchema), nextCursor: z.string().optional() }),
  },
  /**
   * Opens a stream of `list.changed` frames on this connection: the ids of sessions whose
   * `session.list` row changed (created, imported, deleted, renamed, prompted, busy toggled, list
   * hints rewritten), each sent once the change is durable. The filters narrow by header facts
   * only (`cwd`, `harness`, `parent`); `busy` and `titlePrefix` change with the row, so a row
   * entering or leaving them is always told. Frames start after this result; they end with
   * `session.listUnsubscribe` or the connection.
   */
  'session.listSubscribe': {
    // Its frames would name sessions outside the grant: a share viewer shows one session, no list.
    share: 'refused',
    params: z.strictObject(listFilterParams),
    result: z.object({ subscriptionId: z.string() }),
  },
  'session.listUnsubscribe': {
    share: 'refused',
    params: z.strictObject({ subscriptionId: z.string().min(1).max(100) }),
    result: z.object({ ok: z.literal(true) }),
  },
  'session.search': {
    share: 'filtered',
    params: z.strictObject({
      query: z.string().max(1000),
      limit: z.number().int().min(1).max(100).optional(),
      cursor: z.string().max(2000).optional(),
      /** Only sessions whose header `cwd` is exactly this project folder. */
      cwd: z.string().min(1).max(4096).optional(),
      /**
       * Only sessions whose header `cwd`'s last folder name is this (`projectNameParam`). A host
       * older than this field refuses it (`RPC_INVALID_PARAMS`: the params are strict).
       */
      projectName: projectNameParam.optional(),
      /** Only sessions from this harness (`strand`: Strand's own, no header `source`). */
      harness: harnessFilterSchema.optional(),
    }),
    /**
     * With `cwd`/`projectName`/`harness`, the index narrows inside its query: a page holds up to `limit`
     * matching sessions, as without a filter, and `nextCursor` continues only the same query under
     * the same filter.
     */
    result: z.object({ results: z.array(searchResultSchema), nextCursor: z.string().optional() }),
  },
  'session.follow': {
    share: 'session',
    params: z.strictObject({
      id: sessionIdParam,
      interactive: z.boolean().optional(),
      window: z.number().int().min(0).max(10_000).optional(),
    }),
    result: followSnapshotSchema,
  },
  'session.unfollow': {
    share: 'open',
    params: z.strictObject({ followId: z.string().min(1).max(100) }),
    result: z.object({ ok: z.literal(true) }),
  },
  'session.page': {
    share: 'session',
    params: z.strictObject({
      id: sessionIdParam,
      beforeSeq: seqParam.optional(),
      fromSeq: seqParam.optional(),
      toSeq: seqParam.optional(),
      limit: z.number().int().min(1).max(10_000).optional(),
    }),
    result: pageResultSchema,
  },
  'session.attachment': {
    share: 'session',
    params: z.strictObject({ id: sessionIdParam, ref: z.string().min(1).max(200) }),
    result: z.object({ mediaType: z.string(), base64: z.string() }),
  },
  'session.export': {
    share: 'session',
    params: z.strictObject({ id: sessionIdParam, format: z.enum(EXPORT_FORMATS) }),
    result: z.object({
      format: z.enum(EXPORT_FORMATS),
      /** The file's media type and a name for it (`strand-<id>.<ext>`, the id escaped). */
      mediaType: z.string(),
      fileName: z.string(),
      text: z.string(),
      /** The cut exported: the last seq (−1 for an empty log) … */
      lastSeq: z.number().int().min(-1),
      /** … and whether a turn was still being written then (the export holds its durable part). */
      running: z.boolean(),
    }),
  },
  /**
   * Writes the session, at its durable cut, as that harness's own transcript into the *host's*
   * folder for it (the host's `HOME` and the harness's variable, as `strand import` reads them;
   * never a path from the wire), where the harness's resume finds it. Same cut, same bytes; a
   * file the harness has continued, or any file not Strand's untouched export, is refused.
   */
  'session.exportTo': {
    // A share token reads; it must never make the host write a file.
    share: 'refused',
    params: z.strictObject({ id: sessionIdParam, harness: z.enum(EXPORT_HARNESSES) }),
    result: z.object({
      /** The file written, on the host's machine. */
      path: z.string(),
      /** The id the harness resumes it by. */
      resumeId: z.string(),
      /** `cd <cwd> && <resume command>`, quoted for a POSIX shell, to run on the host's machine. */
      command: z.string(),
      /** The subagent children written as the harness's own child files (Claude Code's sidechains). */
      children: z.array(z.string()),
      /** What the transcript could not hold, one line per kind (subagents it has no place for, by id). */
      leftOut: z.array(z.string()),
      /** The cut written (−1 for an empty log) and whether a turn was still running then. */
      lastSeq: z.number().int().min(-1),
      running: z.boolean(),
    }),
  },
  'session.fork': {
    share: 'refused',
    params: z.strictObject({ id: sessionIdParam, atSeq: seqParam }),
    result: z.object({ id: z.string() }),
  },
  'usage.summary': {
    share: 'refused',
    params: z.strictObject({
      /** Rows per day (the default), week (from Monday), month, session, project, model or harness. */
      by: z.enum(USAGE_GROUPS).optional(),
      /** `YYYY-MM-DD` (from that local day's start) or an ISO time with a zone. */
      since: z.string().max(40).optional(),
      /** `YYYY-MM-DD` (through that local day's end) or an ISO time with a zone. */
      until: z.string().max(40).optional(),
      /** The IANA zone days, weeks and months are in; the host's own when absent. */
      timeZone: z.string().min(1).max(100).optional(),
      harness: harnessFilterSchema.optional(),
      /** Only sessions whose header `cwd` is exactly this project folder. */
      cwd: z.string().min(1).max(4096).optional(),
      /**
       * Only these sessions (1…1,000): the list's cost column prices the rows it shows, and again
       * the rows a `list.changed` names, instead of the whole corpus on a timer.
       */
      ids: z.array(sessionIdParam.min(1).max(128)).min(1).max(MAX_LIST_PAGE_LIMIT).optional(),
      /** Prices overriding the host's table for these model names (a `--pricing` file's `models`). */
      prices: z
        .record(z.string().max(200), ratesSchema.extend({ longContext: ratesSchema.optional() }))
        .refine((r) => Object.keys(r).length <= 1000, 'at most 1000 models')
        .optional(),
    }),
    /**
     * Each session's own tokens (a fork's inherited prefix is its parent's), grouped; every figure
     * comes from the `usage` projection (no log is read where the cache holds it). Costs are
     * computed here from a price table, never stored: `pricing` names it.
     */
    result: z.object({
      rows: z.array(usageRowSchema),
      totals: usageFiguresSchema.extend({ sessions: z.number() }),
      timeZone: z.string(),
      pricing: z.string(),
    }),
  },
  'subagent.list': {
    share: 'subtree',
    params: z.strictObject({ id: sessionIdParam, scope: z.enum(['children', 'descendants']).optional() }),
    result: z.object({
      rows: z.array(z.union([subagentListEntrySchema, subagentTreeEntrySchema])),
      /**
       * `subagentTiming` hints per child id (live watermark cache or cache rows; partial: a missing
       * id is unknown). Beside the rows, never in them: the row shape is the listing contract's.
       */
      timing: z.record(z.string(), projectionHintsSchema).optional(),
    }),
  },
  'session.create': {
    share: 'refused',
    params: z.strictObject({
      cwd: z.string().max(4096).optional(),
      model: z.strictObject(routeParams).optional(),
      preset: z.string().min(1).max(200).optional(),
      prompt: z.string().max(1_000_000).optional(),
    }),
    result: z.object({ id: z.string() }),
  },
  'session.prompt': {
    share: 'refused',
    params: z.strictObject({ id: sessionIdParam, text: z.string().min(1).max(1_000_000) }),
    result: z.object({ accepted: z.literal(true) }),
  },
  'session.cancel': {
    share: 'refused',
    params: z.strictObject({ id: sessionIdParam }),
    result: z.object({ cancelled: z.boolean() }),
  },
  'session.rename': {
    share: 'refused',
    params: z.strictObject({ id: sessionIdParam, title: z.string().min(1).max(500) }),
    result: appendedResult,
  },
  'session.selectModel': {
    share: 'refused',
    params: z.strictObject({ id: sessionIdParam, ...routeParams }),
    result: appendedResult,
  },
  'session.selectPreset': {
    share: 'refused',
    params: z.strictObject({ id: sessionIdParam, preset: z.string().min(1).max(200).nullable() }),
    result: appendedResult,
  },
  'catalog.models': {
    share: 'open',
    params: z.strictObject({}),
    result: z.object({ models: z.array(modelCatalogEntrySchema) }),
  },
  'catalog.presets': {
    share: 'open',
    params: z.strictObject({}),
    result: z.object({ presets: z.array(presetCatalogEntrySchema) }),
  },
  ...SHARE_METHODS,
} as const satisfies Record<
  string,
  { readonly share: ShareAccess; readonly params: z.ZodType; readonly result: z.ZodType }
>;

type MethodTable = typeof METHODS;
export type MethodName = keyof MethodTable;

type MethodTypes = {
  readonly [M in MethodName]: {
    params: Wire<MethodTable[M]['params']>;
    result: Wire<MethodTable[M]['result']>;
  };
};
/**
 * Every method: params and result, as the schemas describe them. An interface (not the mapped
 * type itself) so `Methods[M]` stays an indexed access for a generic `M`, as callers expect.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- see above
export interface Methods extends MethodTypes {}
export type ParamsOf<M extends MethodName> = Methods[M]['params'];
export type ResultOf<M extends MethodName> = Methods[M]['result'];

export const METHOD_NAMES = Object.keys(METHODS) as readonly MethodName[];

export function isMethodName(method: string): method is MethodName {
  return Object.hasOwn(METHODS, method);
}
