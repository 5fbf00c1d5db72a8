import { createHash } from 'node:crypto';
import { listHarnessOf, listParentOf, listProjectNameOf, listTitleOf } from '@strand/projection-cache';
import type { ListableRow } from './list-order.js';

/**
 * What `session.list` narrows by. Every field absent means "any"; `parent: null` means top-level
 * sessions only (no subagent parent), an id means that session's subagent children.
 */
export interface ListFilter {
  /** Only sessions whose header `cwd` is exactly this. */
  readonly cwd?: string | undefined;
  /** Only sessions whose `cwd`'s last folder name is this (`listProjectNameOf`: `strand` for `/home/dev/strand/`). */
  readonly projectName?: string | undefined;
  /** `source.harness`, or `strand` for Strand's own sessions (the vocabulary of `session.search`). */
  readonly harness?: string | undefined;
  readonly parent?: string | null | undefined;
  readonly busy?: boolean | undefined;
  /** A case-sensitive prefix of the `title` hint; a row whose title is unknown or null never matches. */
  readonly titlePrefix?: string | undefined;
}

/**
 * A subagent child's parent, by the rule the web list and the follow hub use: `origin: 'subagent'`
 * with a `parentSession`. A fork (`forkedFrom`) is top-level.
 */
export function parentOf(row: ListableRow): string | null {
  return listParentOf(row.header);
}

/** The `title` hint when it is a known string (hints are partial and may be stale). */
export function titleOf(row: ListableRow): string | null {
  return listTitleOf(row.hints?.values);
}

export function matchesFilter(row: ListableRow, filter: ListFilter): boolean {
  if (filter.cwd !== undefined && row.header.cwd !== filter.cwd) return false;
  if (filter.projectName !== undefined && listProjectNameOf(row.header.cwd) !== filter.projectName)
    return false;
  if (filter.harness !== undefined && listHarnessOf(row.header) !== filter.harness) return false;
  if (filter.parent !== undefined && parentOf(row) !== filter.parent) return false;
  if (filter.busy !== undefined && row.busy !== filter.busy) return false;
  if (filter.titlePrefix !== undefined && !(titleOf(row)?.startsWith(filter.titlePrefix) ?? false))
    return false;
  return true;
}

/**
 * A short digest of the filter, which a cursor carries so it continues only the listing it came
 * from. Fields are written in a fixed order and absent ones left out, so "any" (absent) and
 * `parent: null` (top-level) differ, and equal filters digest equally however they were spelled.
 */
export function filterDigest(filter: ListFilter): string {
  const fields: unknown[] = [
    filter.cwd ?? 0,
    filter.harness ?? 0,
    filter.parent === undefined ? 0 : [filter.parent],
    filter.busy ?? 0,
    filter.titlePrefix ?? 0,
  ];
  // A field added later is written only when given, so cursors issued before it keep their digest.
  if (filter.projectName !== undefined) fields.push(['projectName', filter.projectName]);
  const canonical = JSON.stringify(fields);
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 16);
}
