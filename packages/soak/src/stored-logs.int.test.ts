import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { acquireDataFolderLock, RECORD_FILE } from '@strand/cli/data-lock';
import { openJsonlPersistence } from '@strand/persistence';
import { SessionId } from '@strand/session';
import { writeStoredSession } from '@strand/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { checkPromises } from './checker.js';
import { contentHash, emptyLedger } from './ledger.js';
import { lockLeftovers, readStoredLogs } from './stored-logs.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function folder(): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'strand-soak-logs-'));
  cleanups.push(() => rm(root, { recursive: true, force: true }));
  return root;
}

/** Writes session `id` with `turns` turns through the JSONL backend, then closes it. */
async function write(root: string, id: string, turns: number): Promise<void> {
  const persistence = await openJsonlPersistence({ root, scanWorker: false });
  await writeStoredSession(persistence, id, turns);
  await persistence.close();
}

describe('the logs and the lock as the checker reads them', () => {
  it('a delivered event the stored log lost is reported through the persistence layer, naming the session and seq', async () => {
    const root = await folder();
    await write(root, 'kept', 2);
    await write(root, 'cut', 3);
    const ledger = emptyLedger();
    for (const [session, events] of await readStoredLogs(root))
      for (const event of events!)
        ledger.delivered.push({ session, seq: event.seq, hash: contentHash(event), client: 0 });
    expect(
      checkPromises({
        ledger,
        stored: await readStoredLogs(root),
        lockLeft: [],
        crashes: [],
        notReopened: [],
      }).broken,
    ).toEqual([]);

    // The log is replaced by a shorter one (a writer that lost its last turn): same id, fewer events.
    const persistence = await openJsonlPersistence({ root, scanWorker: false });
    await persistence.delete(SessionId('cut'));
    await persistence.close();
    await write(root, 'cut', 1);
    const verdict = checkPromises({
      ledger,
      stored: await readStoredLogs(root),
      lockLeft: [],
      crashes: [],
      notReopened: [],
    });
    expect(verdict.lostDelivered).toBeGreaterThan(0);
    expect(verdict.broken[0]).toMatchObject({ promise: 'delivered', session: 'cut' });
    expect(verdict.broken.every((b) => 'session' in b && b.session === 'cut')).toBe(true);
  });

  it('a held folder and a left lock record are reported; a released folder leaves nothing', async () => {
    const root = await folder();
    expect(await lockLeftovers(root)).toEqual([]);
    const lock = await acquireDataFolderLock(root, { command: 'soak', note: () => undefined });
    expect(await lockLeftovers(root)).toEqual([
      'the data folder is still held (writer)',
      `${RECORD_FILE} was left behind`,
    ]);
    await lock.release();
    expect(await lockLeftovers(root)).toEqual([]);
    // What a SIGKILLed holder leaves: its record, with the kernel lock gone.
    await writeFile(path.join(root, RECORD_FILE), '{}');
    expect(await lockLeftovers(root)).toEqual([`${RECORD_FILE} was left behind`]);
  });
});
