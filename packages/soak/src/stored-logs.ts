import { existsSync } from 'node:fs';
import path from 'node:path';
import { findDataFolderHolder, RECORD_FILE } from '@strand/cli/data-lock';
import { openJsonlPersistence, type SessionPersistence } from '@strand/persistence';
import { SessionId } from '@strand/session';
import type { StoredLogs } from './checker.js';
import type { EventContent } from './ledger.js';

/**
 * Every stored log of the folder, read through the persistence layer with no host running:
 * `inspect` (exact and non-mutating: a torn tail is ignored, repairs are not written), so the
 * checker sees what a crash left and nothing the reader added.
 */
export async function readStoredLogs(dataDir: string): Promise<StoredLogs> {
  return readPersistedLogs(
    await openJsonlPersistence({ root: dataDir, sweepTemp: false, scanWorker: false }),
  );
}

/** Every log `persistence` stores, read with `inspect` (exact, nothing written); closes it after. */
export async function readPersistedLogs(persistence: SessionPersistence): Promise<StoredLogs> {
  try {
    const logs = new Map<string, readonly EventContent[]>();
    for (const { header } of await persistence.list()) {
      const stored = await persistence.inspect(SessionId(header.id));
      logs.set(
        header.id,
        stored.events.map(({ seq, type, time, data }) => ({ seq, type, time, data })),
      );
    }
    return logs;
  } finally {
    await persistence.close();
  }
}

/** What is left of the folder's writer lock: a process still holding it, a holder's record. */
export async function lockLeftovers(dataDir: string): Promise<string[]> {
  const left: string[] = [];
  const holder = await findDataFolderHolder(dataDir);
  if (holder.kind !== 'free') left.push(`the data folder is still held (${holder.kind})`);
  if (existsSync(path.join(dataDir, RECORD_FILE))) left.push(`${RECORD_FILE} was left behind`);
  return left;
}
