import type { SessionId } from '@strand/session';
import type { Candidate, SubagentCatalog } from './catalog.js';
import { enumerateSubagents } from './enumerate.js';
import { DEFAULT_LISTING_LIMITS } from './limits.js';
import { resolveLadder } from './resolve.js';
import { entryFor } from './rows.js';
import { requireListingServices } from './services.js';
import type { SubagentDescendantEntry, SubagentListingContext } from './types.js';

interface Placed {
  readonly candidate: Candidate;
  readonly parentId: SessionId;
  readonly depth: number;
}

/**
 * The subagent tree under `rootId` in pre-order (each parent before its subtree, siblings in
 * listing order). Iterative — an explicit stack, so depth is bounded by memory, not the call
 * stack — and cycle-safe: each id is placed at most once, the root never. Every node is
 * traversed whatever its own row turns out to be (omitted, diagnostic or child).
 */
export function placeDescendants(catalog: SubagentCatalog, rootId: SessionId): Placed[] {
  const placed: Placed[] = [];
  const seen = new Set<SessionId>([rootId]);
  const stack: Placed[] = [];
  const pushChildren = (parentId: SessionId, depth: number): void => {
    const children = catalog.childrenOf(parentId);
    for (let i = children.length - 1; i >= 0; i--) stack.push({ candidate: children[i]!, parentId, depth });
  };
  pushChildren(rootId, 1);
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    if (seen.has(next.candidate.id)) continue;
    seen.add(next.candidate.id);
    placed.push(next);
    pushChildren(next.candidate.id, next.depth + 1);
  }
  return placed;
}

/**
 * Every subagent descendant of `rootId`, in pre-order, each row with its `parentId` and `depth`
 * (direct children: 1). The same enumeration, ladder, mapping, isolation, cold-read bound and
 * errors as `listChildren`, over one corpus listing and one shared bound for the whole tree.
 */
export async function listDescendants(
  ctx: SubagentListingContext,
  rootId: SessionId,
  signal?: AbortSignal,
): Promise<SubagentDescendantEntry[]> {
  const services = requireListingServices(ctx);
  const catalog = await enumerateSubagents(services, signal);
  const placed = placeDescendants(catalog, rootId);
  const results = await resolveLadder(
    placed.map((p) => p.candidate),
    services,
    ctx.limits ?? DEFAULT_LISTING_LIMITS,
    signal,
  );
  const rows: SubagentDescendantEntry[] = [];
  placed.forEach(({ candidate, parentId, depth }, index) => {
    const row = entryFor(candidate, results[index]!, catalog.hasChildren(candidate.id));
    if (row !== undefined) rows.push({ ...row, parentId, depth });
  });
  return rows;
}
