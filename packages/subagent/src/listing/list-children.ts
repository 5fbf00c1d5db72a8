import type { SessionId } from '@strand/session';
import { enumerateSubagents } from './enumerate.js';
import { DEFAULT_LISTING_LIMITS } from './limits.js';
import { resolveLadder } from './resolve.js';
import { entryFor } from './rows.js';
import { requireListingServices } from './services.js';
import type { SubagentListEntry, SubagentListingContext } from './types.js';

/**
 * The direct subagent children of `parentId` (the listing contract): enumerated from the query corpus with
 * live preference, valued by the three-rung compute-and-discard ladder, mapped to rows by the
 * four-state mapping, ordered by `createdAt` then id. One child's failed cold read is one
 * `unavailable` row; siblings and the listing are unaffected. An unknown parent is an empty list.
 *
 * Throws `SubagentControlError`: a missing required service (its own code, checked first),
 * `SUBAGENT_CONTROL_QUERY_FAILED` when the corpus cannot be listed, `CANCELLED` when `signal`
 * aborts.
 */
export async function listChildren(
  ctx: SubagentListingContext,
  parentId: SessionId,
  signal?: AbortSignal,
): Promise<SubagentListEntry[]> {
  const services = requireListingServices(ctx);
  const catalog = await enumerateSubagents(services, signal);
  const children = catalog.childrenOf(parentId);
  const results = await resolveLadder(children, services, ctx.limits ?? DEFAULT_LISTING_LIMITS, signal);
  const rows: SubagentListEntry[] = [];
  children.forEach((child, index) => {
    const row = entryFor(child, results[index]!, catalog.hasChildren(child.id));
    if (row !== undefined) rows.push(row);
  });
  return rows;
}
