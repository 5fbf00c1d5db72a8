import { listRowHints, listRowUsage } from '@strand/host';
import type { ProjectionRegistry } from '@strand/projection';
import type { RuntimeStores } from '@strand/runtime';
import { asOfSeqAt, SessionLogOffset } from '@strand/session';

/** Logs read and folded at once: the list rows pile up behind them for the store to write in batches. */
const READERS = 4;

/**
 * `strand doctor --rebuild-list`: empties the list index and writes every stored session's row
 * again from its log (header facts, and the hints and usage hours of a whole fold at the log's end). A log that
 * cannot be read keeps a header-only row, so it stays listed (verification reports it). Logs are
 * read `READERS` at a time (each session's row is its own: the order they are written in does not
 * change the index), so a store that writes behind (PostgreSQL) finds many rows queued and writes
 * them in multi-row statements instead of waiting on one read at a time. Resolves with the rows
 * written, or `undefined` when the store keeps no list index.
 */
export async function rebuildList(
  stores: RuntimeStores,
  registry: ProjectionRegistry,
): Promise<number | undefined> {
  const { persistence, cache } = stores;
  const index = cache.listIndex;
  if (index === undefined) return undefined;
  index.clear();
  const summaries = await persistence.list();
  let next = 0;
  let written = 0;
  const reader = async (): Promise<void> => {
    while (next < summaries.length) {
      const summary = summaries[next++]!;
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
  };
  await Promise.all(Array.from({ length: Math.min(READERS, summaries.length) }, reader));
  return written;
}
