/**
 * The lane side of `strand import`'s projection cache rows (a session digest of `@strand/import`,
 * loaded by URL in every import lane, worker threads included): folds each session a lane wrote
 * through the host's registry (`strandRegistry`) from the log the lane holds — never read back —
 * and returns its final checkpoint rows as plain data. `import-cache-rows.ts` writes them in the
 * coordinating thread, many sessions to a commit.
 */
import type { WrittenSession } from '@strand/import';
import type { CheckpointRows } from '@strand/projection';
// The registry alone: a worker lane loads this module, and the runtime's index is the whole host.
import { strandRegistry } from '@strand/runtime/registry';
import { Session, type SessionHeader, type SessionLogOffset } from '@strand/session';

/** What the coordinating thread writes for one imported session. */
export type CacheRowsDigest =
  | {
      readonly kind: 'put';
      readonly header: SessionHeader;
      readonly incarnation: string;
      readonly inheritedCut: SessionLogOffset;
      readonly rows: CheckpointRows;
    }
  /** The fold failed: older rows of the session must go (a cold read then meets the same failure). */
  | { readonly kind: 'forget'; readonly header: SessionHeader; readonly reason: string };

const registry = strandRegistry();
let final: CheckpointRows | undefined;
let failure: string | undefined;
// The same two outcomes the cache write policy acts on when a live session detaches: its final
// checkpoint (`untracked`), or a failed fold whose rows must be dropped (`failed`).
registry.onTracking((event) => {
  if (event.kind === 'untracked') final = event.checkpoint;
  else if (event.kind === 'failed') failure = event.error.message;
});

/** Folds one written session; never throws (a failure is a `forget` digest). */
export function digestSession(written: WrittenSession): CacheRowsDigest {
  final = undefined;
  failure = undefined;
  try {
    const session = new Session({
      header: written.header,
      events: written.events,
      inheritedEventCount: written.inheritedEventCount,
      incarnation: written.incarnation,
    });
    registry.track(session);
    registry.untrack(session);
  } catch (error) {
    failure ??= error instanceof Error ? error.message : String(error);
  }
  if (failure !== undefined || final === undefined)
    return { kind: 'forget', header: written.header, reason: failure ?? 'the fold left no checkpoint' };
  return {
    kind: 'put',
    header: written.header,
    incarnation: written.incarnation,
    inheritedCut: written.inheritedEventCount,
    rows: final,
  };
}
