import { eventually } from '@strand/test-support';
import { SessionPreparations, type SessionPersistence } from '@strand/persistence';
import type { SessionStore } from '@strand/session';
import { openTempStack } from '@strand/stack/testing';
import type { FileRead } from '../live/file-follow.js';
import {
  startLiveIngest,
  type IngestTarget,
  type LiveIngest,
  type LiveIngestOptions,
} from '../live/live-ingest.js';
import type { Harness, ImportReport } from '../types.js';
import { workspace, type Workspace } from './fixture-dirs.js';

/**
 * Live ingest's test bed: a temp workspace, a base stack on its data folder (real fsync'd JSONL
 * persistence, the live store a host serves) as the target, and every report and read recorded.
 * One bed a test (open it in `beforeEach`, close it in `afterEach`): closing stops the ingest still
 * running, then the stack, then removes the folder.
 */
export interface LiveBed {
  readonly ws: Workspace;
  readonly persistence: SessionPersistence;
  readonly store: SessionStore;
  /**
   * A target for live ingest to write through: the persistence, fresh preparations over it (each
   * start gets its own, as a restarted host does) and the store.
   */
  target(): IngestTarget;
  readonly reports: ImportReport[];
  readonly reads: FileRead[];
  /**
   * Starts live ingest watching the source folder for `harness`, recording reports and reads, with
   * a 5 ms settle; `options` add to or replace these. Does not wait for `ready` (`start` does).
   */
  launch(options?: Partial<LiveIngestOptions>): LiveIngest;
  /** `launch`, then waits until it is `ready`. */
  start(options?: Partial<LiveIngestOptions>): Promise<LiveIngest>;
  /** Closes the running ingest (if any); the bed stays open for another `start`. */
  stop(): Promise<void>;
  close(): Promise<void>;
}

export async function openLiveBed(prefix: string, harness: Harness): Promise<LiveBed> {
  const ws = workspace(prefix);
  const stack = await openTempStack({ root: ws.data });
  const { persistence, store } = stack;
  const target = (): IngestTarget => ({
    persistence,
    preparations: new SessionPreparations(persistence),
    store,
  });
  const reports: ImportReport[] = [];
  const reads: FileRead[] = [];
  let running: LiveIngest | undefined;
  const stop = async (): Promise<void> => {
    const ingest = running;
    running = undefined;
    await ingest?.close();
  };
  const launch = (options: Partial<LiveIngestOptions> = {}): LiveIngest => {
    running = startLiveIngest({
      watches: [{ harness, dir: ws.source }],
      target: target(),
      onReport: (r) => reports.push(r),
      onRead: (r) => reads.push(r),
      settleMs: 5,
      ...options,
    });
    return running;
  };
  return {
    ws,
    persistence,
    store,
    target,
    reports,
    reads,
    launch,
    async start(options) {
      const ingest = launch(options);
      await ingest.ready;
      return ingest;
    },
    stop,
    async close() {
      await stop();
      await stack.close();
      ws.dispose();
    },
  };
}

/**
 * Waits until `condition` holds, checked at quiet moments of the ingest (after its queued work),
 * so a check never reads a file's import half-way. The one wait of the tests bounds it.
 */
export async function settled(live: LiveIngest, condition: () => Promise<boolean> | boolean): Promise<void> {
  await eventually(async () => {
    await live.idle();
    return await condition();
  }, String(condition));
}
