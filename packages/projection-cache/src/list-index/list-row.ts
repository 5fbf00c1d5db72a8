import { projectNameOf, STRAND_HARNESS, type SessionHeader } from '@strand/session';
import { lastActivityAt as lastActivityOfView, type HourUsage } from '@strand/projection';

/** The projection keys a list row carries as hints (`session.list`'s hints). */
export const LIST_HINT_KEYS = ['title', 'listMetadata', 'agentPreset'] as const;
export type ListHintKey = (typeof LIST_HINT_KEYS)[number];

/** Hint values at a durable cut: the `ProjectionHints` shape of `session.list`. */
export interface ListRowHints {
  readonly asOfSeq: number;
  readonly values: Readonly<Partial<Record<ListHintKey, unknown>>>;
}

/**
 * The `usage` unit's own tokens per UTC hour and model at a durable cut, kept beside the list row
 * (one `usage_hours` row per entry) so usage over the corpus is one query. `byHour` is null when
 * the fold could not read a usage record: known, and summed as nothing.
 */
export interface ListRowUsage {
  readonly asOfSeq: number;
  readonly byHour: readonly HourUsage[] | null;
}

/**
 * One session in the list index: its identity, its header as stored, and the list hints at a
 * durable cut (absent: not folded yet, every hint unknown). The filter and sort columns a store
 * keeps are derived from these (`listColumnsOf`), never written on their own. `usage`, when the
 * write carries it, replaces the session's stored hours unless they are at a later cut; it is
 * never read back with the row (`ListIndexStore.usage` serves it).
 */
export interface ListIndexRow {
  readonly header: SessionHeader;
  readonly incarnation: string;
  readonly hints?: ListRowHints | undefined;
  readonly usage?: ListRowUsage | undefined;
}

/**
 * Last activity, the list's sort key: `listMetadata.lastPromptAt` when the hint knows one, else
 * the header's `createdAt` (ms). Never a guess, so it changes only when a prompt is written.
 */
export function lastActivityAt(header: SessionHeader, values: ListRowHints['values'] | undefined): number {
  return lastActivityOfView(header.createdAt, values?.listMetadata);
}

/**
 * A subagent child's parent, by the rule the web list and the follow hub use: `origin: 'subagent'`
 * with a `parentSession`. A fork (`forkedFrom`) is top-level.
 */
export function listParentOf(header: SessionHeader): string | null {
  return header.origin === 'subagent' && header.parentSession !== undefined ? header.parentSession : null;
}

/** `source.harness`, or `strand` for Strand's own sessions (the vocabulary of `session.search`). */
export function listHarnessOf(header: SessionHeader): string {
  return header.source?.harness ?? STRAND_HARNESS;
}

/** The `title` hint when it is a known string (a title unknown or null matches no prefix). */
export function listTitleOf(values: ListRowHints['values'] | undefined): string | null {
  const title = values?.title;
  return typeof title === 'string' ? title : null;
}

/**
 * The `cwd`'s last folder name (`projectNameOf` of @strand/session, the rule `session.search`'s
 * `projectName` shares); `null` without a `cwd`. What `session.list`'s `projectName` matches.
 */
export const listProjectNameOf: (cwd: string | undefined) => string | null = projectNameOf;

/** The columns a store filters and orders by, all derived from the row. */
export interface ListColumns {
  readonly id: string;
  readonly activityAt: number;
  readonly cwd: string | null;
  /** The `cwd`'s last folder name (`listProjectNameOf`). */
  readonly projectName: string | null;
  readonly harness: string;
  readonly parent: string | null;
  readonly title: string | null;
}

export function listColumnsOf(row: ListIndexRow): ListColumns {
  const values = row.hints?.values;
  return {
    id: row.header.id,
    activityAt: lastActivityAt(row.header, values),
    cwd: row.header.cwd ?? null,
    projectName: listProjectNameOf(row.header.cwd),
    harness: listHarnessOf(row.header),
    parent: listParentOf(row.header),
    title: listTitleOf(values),
  };
}

/** What a page query narrows by: `session.list`'s filter less `busy` (a host-side fact). */
export interface ListIndexFilter {
  readonly cwd?: string | undefined;
  /** Only sessions whose `cwd`'s last folder name is this (`listProjectNameOf`). */
  readonly projectName?: string | undefined;
  readonly harness?: string | undefined;
  /** `null`: top-level sessions only; an id: that session's subagent children. */
  readonly parent?: string | null | undefined;
  readonly titlePrefix?: string | undefined;
}

export interface ListIndexQuery {
  readonly filter: ListIndexFilter;
  /** Only rows strictly after this key in the order (activity descending, then id ascending). */
  readonly after?: { readonly at: number; readonly id: string } | undefined;
  readonly limit: number;
}

/** What `ListIndexStore.usage` narrows by: `usage.summary`'s filters (hours by their start, ms). */
export interface UsageIndexQuery {
  readonly cwd?: string | undefined;
  readonly harness?: string | undefined;
  /** Only these sessions. */
  readonly ids?: readonly string[] | undefined;
  /** Hours starting at or after this instant. */
  readonly since?: number | undefined;
  /** Hours starting before this instant. */
  readonly until?: number | undefined;
}

/** One session whose usage the index knows, with its hours that pass the query's bounds. */
export interface UsageIndexSession {
  readonly id: string;
  readonly incarnation: string;
  readonly title: string | null;
  readonly cwd: string | null;
  readonly harness: string;
  readonly byHour: readonly HourUsage[];
}

/**
 * The least string above every string that starts with `prefix`, in code point order (SQLite's
 * BINARY collation of UTF-8 and PostgreSQL's `COLLATE "C"` both order so): `prefix` with its last
 * code point raised by one (past the surrogates), a last U+10FFFF dropped and the one before it
 * raised instead. With `title >= prefix` it bounds the title index's range to the prefix's rows
 * alone. Undefined where no bound exists or none is safe: the empty prefix, one of U+10FFFF only,
 * or a prefix holding a lone surrogate (no stored title can start with it; the filter's own
 * comparison, which stays beside the bound, decides).
 */
export function titlePrefixEnd(prefix: string): string | undefined {
  // A lone surrogate is the one code point `u` mode matches as a surrogate.
  if (/\p{Cs}/u.test(prefix)) return undefined;
  const points = [...prefix].map((char) => char.codePointAt(0)!);
  while (points.length > 0) {
    const last = points.pop()!;
    if (last < 0x10ffff) return String.fromCodePoint(...points, last + 1 === 0xd800 ? 0xe000 : last + 1);
  }
  return undefined;
}
