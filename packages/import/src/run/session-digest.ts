import type { WrittenSession } from '../write/write-plan.js';

/**
 * A per-session digest of a one-shot import: something derived from each session a lane created
 * or changed, computed in that lane from the log it holds in memory (never read back), and handed
 * to the coordinating thread as plain data (it crosses a worker boundary by structured clone).
 * The CLI's is the projection cache rows of each imported session, so a host lists them with their
 * titles at once.
 *
 * Lanes may run in worker threads, which cannot receive a function: the lane side is a module,
 * named by URL, that every lane loads (`loadDigest`); the coordinating side is a function.
 */
export interface SessionDigestOption {
  /**
   * The URL of a module exporting `digestSession(session: WrittenSession): unknown` — called once
   * per session a lane wrote, after its log and name are durable; returns plain data. It must not
   * throw for a problem of the session (return one as data instead): a throw counts as the file's
   * write failing.
   */
  readonly module: string;
  /** Receives, in the coordinating thread, each file's digests as its outcome arrives. */
  readonly collect: (digests: readonly unknown[]) => void;
}

/** The lane side of a digest: the module's function. */
export type DigestSession = (session: WrittenSession) => unknown;

/** Loads a digest module; rejects with a clear message when it has no `digestSession`. */
export async function loadDigest(module: string): Promise<DigestSession> {
  const loaded = (await import(module)) as { digestSession?: unknown };
  if (typeof loaded.digestSession !== 'function')
    throw new TypeError(`session digest module ${module} exports no digestSession function`);
  return loaded.digestSession as DigestSession;
}
