import { listRowHints, listRowUsage } from '@strand/host';
import type { ProjectionRegistry } from '@strand/projection';
import type { RuntimeStores } from '@strand/runtime';
import { asOfSeqAt, SessionLogOffset } from '@strand/session';

/**
 * `strand doctor --rebuild-list`: empties the list index and writes every stored session's row
 * again from its log (header facts, and the hints and usage hours of a whole fold at the log's end). A log that
 * cannot be read keeps a header-only row, so it stays listed (verification reports it). Resolves
 * with the rows written, or `undefined` when the store keeps no list index.
 */
export async function rebuildList(
  stores: RuntimeStores,
  registry: ProjectionRegistry,
): Promise<number | undefined> {
  const { persistence, cache } = stores;
  const index = cache.listIndex;
  if (index === undefined) return undefined;
  index.clear();
  let written = 0;
  for (const summary of await persistence.list()) {
    let hints;
    let usage;
    try {
      const log = await persistence.inspect(summary.header.id);
      const folded = registry.foldAll(log.header, log.events, log.inheritedEventCount);
      const asOfSeq = asOfSeqAt(SessionLogOffset(log.events.length));
      hints = listRowHints(folded.snapshot.values, asOfSeq);
      usage = listRowUsage(folded.snapshot.values, asOfSeq);
    } catch {
      hints = undefined;
    }
    cache.noteSession(summary, hints, usage);
    written++;
  }
  return written;
}
