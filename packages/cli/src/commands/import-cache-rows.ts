import path from 'node:path';
import { strandRegistry } from '@strand/runtime';
import { openJsonlPersistence } from '@strand/persistence';
import { CacheWritePolicy, ProjectionCache } from '@strand/projection-cache';
import { Session, SessionId, silentLogger, type LogFields } from '@strand/session';
import { STORE_FILES } from '@strand/stack';

export interface CacheRowsResult {
  /** Sessions whose rows were written. */
  readonly written: number;
  /** Sessions whose rows could not be written, with why (the cache is only an accelerator). */
  readonly problems: readonly { readonly id: string; readonly reason: string }[];
}

/**
 * Writes projection cache rows for the sessions an import created or changed, so a host lists
 * them with their titles at once instead of "(title unknown)" until someone opens them. Each
 * session goes through the host's registry (`strandRegistry`) and the `CacheWritePolicy`, the
 * same path as a live session detaching: tracked (one fold of its stored, durable log), then
 * untracked, whose final checkpoint the policy writes. A failure costs only that session's rows.
 */
/** A policy log line as an import problem: the session it names and the line. */
function problemRecorder(
  problems: { id: string; reason: string }[],
): (message: string, fields?: LogFields) => void {
  return (message, fields) => {
    const id = fields?.sessionId;
    problems.push({ id: typeof id === 'string' ? id : '', reason: message });
  };
}

export async function writeImportedCacheRows(
  dataDir: string,
  ids: readonly string[],
): Promise<CacheRowsResult> {
  if (ids.length === 0) return { written: 0, problems: [] };
  const registry = strandRegistry();
  const cache = ProjectionCache.open({ path: path.join(dataDir, STORE_FILES.projectionCache), registry });
  const persistence = await openJsonlPersistence({ root: dataDir });
  const problems: { id: string; reason: string }[] = [];
  const problem = problemRecorder(problems);
  const policy = new CacheWritePolicy({
    registry,
    cache,
    // Every event folded here was read back from disk: already durable.
    flush: () => Promise.resolve(),
    // The policy's contained failures become this run's problems (the import summary lists them).
    logger: { ...silentLogger, warn: problem, error: problem },
  });
  let written = 0;
  try {
    for (const id of ids) {
      try {
        const log = await persistence.inspect(SessionId(id));
        const session = new Session({
          header: log.header,
          events: log.events,
          inheritedEventCount: log.inheritedEventCount,
          incarnation: log.incarnation,
        });
        registry.track(session);
        registry.untrack(session);
        written++;
      } catch (error) {
        problems.push({ id, reason: error instanceof Error ? error.message : String(error) });
      }
    }
    await policy.drain();
  } finally {
    policy.dispose();
    cache.close();
    await persistence.close();
  }
  return { written, problems };
}
