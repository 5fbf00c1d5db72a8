import type { ProjectionHints, SubagentListEntry, SubagentTreeEntry } from '@strand/protocol';
import { SessionId, SessionLogOffset } from '@strand/session';
import { HostError } from '../errors.js';
import type { HostServices } from '../services.js';

const TIMING_KEYS = ['subagentTiming'] as const;

/**
 * `subagent.list`: the listing rows (the subagent package's ladder) plus `subagentTiming` hints
 * beside them, so a tree can show active time without following every child: running children
 * from the live watermark cache (zero reads), settled unseeded ones from cache rows; otherwise
 * unknown. Never activates an agent.
 */
export async function subagentList(
  services: HostServices,
  params: { id: string; scope?: 'children' | 'descendants' | undefined },
  signal: AbortSignal,
): Promise<{
  rows: readonly (SubagentListEntry | SubagentTreeEntry)[];
  timing: Record<string, ProjectionHints>;
}> {
  if (services.subagents === undefined)
    throw new HostError('HOST_SUBAGENTS_UNAVAILABLE', 'this host has no subagent catalog');
  const rows = await services.subagents.list(SessionId(params.id), params.scope ?? 'children', signal);
  const children = new Set(rows.filter((row) => row.kind === 'child').map((row) => row.id));
  const timing: Record<string, ProjectionHints> = {};
  if (children.size === 0) return { rows, timing };
  const corpus = await services.query.listSessions({ signal });
  // The cache rows read below, loaded first where the store holds only some sessions in memory.
  await services.cache?.prefetch(
    corpus.flatMap((entry) =>
      children.has(entry.header.id) &&
      !entry.header.isSeeded &&
      services.store.get(entry.header.id) === undefined
        ? [entry.header.id]
        : [],
    ),
  );
  for (const entry of corpus) {
    const id = entry.header.id;
    if (!children.has(id)) continue;
    const live = services.store.get(id);
    let hints: ProjectionHints | undefined;
    try {
      if (live !== undefined) hints = services.registry.snapshot(live, TIMING_KEYS);
      else if (services.cache !== undefined && entry.incarnation !== undefined && !entry.header.isSeeded) {
        hints = services.cache.cachedSnapshot(
          { header: entry.header, incarnation: entry.incarnation },
          SessionLogOffset(0),
          TIMING_KEYS,
        );
      }
    } catch {
      // A hint is optional: a failed fold leaves this child's timing unknown.
    }
    if (hints !== undefined && Object.hasOwn(hints.values, 'subagentTiming')) timing[id] = hints;
  }
  return { rows, timing };
}
