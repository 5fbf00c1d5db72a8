import type { ProjectionHints, SessionListRow } from '@strand/protocol';
import { asOfSeqAt, SessionLogOffset } from '@strand/session';
import type { CorpusRow } from '@strand/query';
import { LIST_HINT_KEYS, type HostLimits, type HostServices } from '../services.js';

const NONE_ELSEWHERE: ReadonlyMap<string, unknown> = new Map();

/**
 * `session.list`: corpus headers with partial hints — the live watermark cache for attached
 * sessions, projection-cache rows for cold unseeded ones. When the cache cannot tell whether a
 * session is blank and its stored size is small, one bounded observation fills the hints;
 * otherwise hints stay missing (unknown) and the row stays visible. With several hosts on one
 * database, a cold session another host holds the lease of is marked `ownedElsewhere` and `busy`
 * (`live` keeps meaning "attached here"). Never activates an agent.
 */
export async function sessionList(
  services: HostServices,
  limits: HostLimits,
  params: { limit?: number | undefined },
  signal: AbortSignal,
): Promise<{ sessions: SessionListRow[] }> {
  const corpus = await services.query.listSessions({ signal });
  corpus.sort(
    (a, b) =>
      b.header.createdAt - a.header.createdAt ||
      (a.header.id < b.header.id ? -1 : a.header.id > b.header.id ? 1 : 0),
  );
  const rows = params.limit === undefined ? corpus : corpus.slice(0, params.limit);
  // One lease query per list call; a session live here is ours, whatever a stale row says.
  const elsewhere = (await services.coordination?.ownedElsewhere()) ?? NONE_ELSEWHERE;
  const out: SessionListRow[] = [];
  for (const row of rows) {
    const hints = row.live
      ? liveHints(services, row)
      : ((await coldHints(services, limits, row, signal)) ?? undefined);
    const ownedElsewhere = !row.live && elsewhere.has(row.header.id);
    out.push({
      id: row.header.id,
      header: row.header,
      live: row.live,
      busy: ownedElsewhere || (row.live && (services.agents?.isBusy(row.header.id) ?? false)),
      ...(ownedElsewhere ? { ownedElsewhere } : {}),
      ...(hints === undefined ? {} : { hints }),
    });
  }
  return { sessions: out };
}

function liveHints(services: HostServices, row: CorpusRow): ProjectionHints | undefined {
  const session = services.store.get(row.header.id);
  if (session === undefined) return undefined;
  try {
    return services.registry.snapshot(session, LIST_HINT_KEYS);
  } catch {
    // A failed fold is not a list error: the row stays visible with unknown hints.
    return undefined;
  }
}

async function coldHints(
  services: HostServices,
  limits: HostLimits,
  row: CorpusRow,
  signal: AbortSignal,
): Promise<ProjectionHints | undefined> {
  let hints: ProjectionHints | undefined;
  // The cache identity needs the exact inherited cut; a header only proves it for unseeded sessions.
  if (services.cache !== undefined && row.incarnation !== undefined && !row.header.isSeeded) {
    hints = services.cache.cachedSnapshot(
      { header: row.header, incarnation: row.incarnation },
      SessionLogOffset(0),
      LIST_HINT_KEYS,
    );
  }
  const knowsBlank = hints !== undefined && Object.hasOwn(hints.values, 'listMetadata');
  if (knowsBlank || row.storedBytes === undefined || row.storedBytes > limits.smallLogBytes) return hints;
  try {
    const observation = await services.query.observeSession(row.header.id, { projectionMode: 'all', signal });
    try {
      const values: Record<string, unknown> = {};
      for (const key of LIST_HINT_KEYS)
        if (observation.projections !== undefined && Object.hasOwn(observation.projections.values, key))
          values[key] = observation.projections.values[key];
      return { asOfSeq: asOfSeqAt(observation.cursor), values };
    } finally {
      observation.dispose();
    }
  } catch {
    // Unreadable small logs keep whatever hints the cache had; the row stays visible.
    return hints;
  }
}
