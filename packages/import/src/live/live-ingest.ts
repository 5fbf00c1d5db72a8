import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import type { SessionPersistence } from '@strand/persistence';
import { importerFor } from '../harnesses.js';
import { Ledger } from '../ledger/ledger.js';
import type { HarnessImporter, SourceUnit } from '../run/harness-importer.js';
import type { Harness, ImportReport } from '../types.js';
import { writePlan, type WriteTarget } from '../write/write-plan.js';
import { appendThroughStore, type LiveTarget } from './live-append.js';

/** One `--watch <harness>:<dir>`. */
export interface WatchSpec {
  readonly harness: Harness;
  readonly dir: string;
}

export interface LiveIngestOptions {
  readonly watches: readonly WatchSpec[];
  /** The running host's store: persistence for creates, the live store for appends. */
  readonly target: LiveTarget & { readonly persistence: SessionPersistence };
  /** The data folder whose import ledger the catch-up wrote: files it stamped are not re-read at start. */
  readonly dataDir?: string;
  /** What ingest saw that a person should know (a truncated or deleted file, a file that failed). */
  readonly onReport?: (report: ImportReport) => void;
  /** Quiet time after a change before the file is read (default 20 ms): a burst of writes is one read. */
  readonly settleMs?: number;
  /** Poll instead of using OS watches (the fallback when the OS watch limit is reached). */
  readonly usePolling?: boolean;
}

export interface LiveIngest {
  /** Resolves when every folder is watched and files changed since the catch-up were read. */
  readonly ready: Promise<void>;
  /** Resolves when no file is waiting to be read (tests, benches). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

interface Watched {
  readonly spec: WatchSpec;
  readonly importer: HarnessImporter;
  readonly root: string;
}

/**
 * Live ingest: follows transcripts while their harness writes them. Every change of a watched
 * file re-maps that file with the one-shot importer's mapping — whose prefix law makes a grown
 * file an extension of what was written — and writes through `writePlan` (create, append, or
 * replace when the content is no extension), appending through the live store so followers
 * receive the new events at once. A partial last line is a torn line to the mapping and waits for
 * its newline. A file that shrank or vanished is reported and its session kept. Files are read
 * one at a time, in the order they changed; a file that changes again while it is read is read
 * once more afterwards.
 *
 * Catch-up is the one-shot import (`importTranscripts`, run by the caller before the host opens
 * the folder); afterwards, files whose size or mtime differ from the ledger's stamps are read
 * here, so nothing written between the two is missed.
 */
export function startLiveIngest(options: LiveIngestOptions): LiveIngest {
  const settleMs = options.settleMs ?? 20;
  const report = options.onReport ?? (() => undefined);
  const watched: Watched[] = options.watches.map((spec) => ({
    spec,
    importer: importerFor(spec.harness),
    root: path.resolve(spec.dir),
  }));
  const sizes = new Map<string, number>();
  /** Session id → the file that holds it, for children whose mapping reads their parent. */
  const fileOf = new Map<string, string>();
  const pending = new Map<string, ReturnType<typeof setTimeout>>();
  const queue: { file: string; owner: Watched }[] = [];
  const queued = new Set<string>();
  let running: Promise<void> | undefined;
  let idleWaiters: (() => void)[] = [];
  let closed = false;
  let stored: Set<string> | undefined;
  const watchers: FSWatcher[] = [];

  const target = async (): Promise<WriteTarget> => {
    stored ??= new Set((await options.target.persistence.list()).map((s) => s.header.id as string));
    return {
      persistence: options.target.persistence,
      stored,
      appendMissing: (log, suffix) => appendThroughStore(options.target, log, suffix),
    };
  };

  const settleIdle = (): void => {
    if (running !== undefined || queue.length > 0 || pending.size > 0) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  };

  const enqueue = (file: string, owner: Watched): void => {
    if (closed || queued.has(file)) return;
    queued.add(file);
    queue.push({ file, owner });
    running ??= drain().finally(() => {
      running = undefined;
      settleIdle();
    });
  };

  const drain = async (): Promise<void> => {
    while (queue.length > 0 && !closed) {
      const next = queue.shift()!;
      queued.delete(next.file);
      try {
        await ingestFile(next.file, next.owner);
      } catch (error) {
        // One file's failure is one report; the others keep being followed.
        report({ file: next.file, line: null, kind: 'failed', reason: (error as Error).message });
      }
    }
  };

  const changed = (file: string, owner: Watched): void => {
    const timer = pending.get(file);
    if (timer !== undefined) clearTimeout(timer);
    pending.set(
      file,
      setTimeout(() => {
        pending.delete(file);
        enqueue(file, owner);
      }, settleMs),
    );
  };

  const ingestFile = async (file: string, owner: Watched): Promise<void> => {
    const stat = await fsp.stat(file).catch(() => undefined);
    if (stat === undefined) {
      if (sizes.delete(file))
        report({ file, line: null, kind: 'note', reason: 'the transcript was deleted; its session is kept' });
      return;
    }
    const before = sizes.get(file);
    sizes.set(file, stat.size);
    if (before !== undefined && stat.size < before) {
      report({
        file,
        line: null,
        kind: 'note',
        reason: `the transcript shrank from ${before} to ${stat.size} bytes; its session is kept as it was`,
      });
      return;
    }
    const unit = await unitOf(owner, file);
    if (unit === undefined) return;
    const peek = await owner.importer.peek(unit);
    if (peek.kind === 'fail') {
      report({ file, line: null, kind: 'failed', reason: peek.reason });
      return;
    }
    if (peek.kind === 'skip') return; // not (yet) a conversation: read again when it grows
    fileOf.set(peek.primaryId, file);
    const parentFile = peek.readsParent === undefined ? undefined : fileOf.get(peek.readsParent);
    const mapped = await owner.importer.map(parentFile === undefined ? unit : { ...unit, parentFile }, peek);
    if (mapped.kind === 'failed') {
      report({ file, line: null, kind: 'failed', reason: mapped.reason });
      return;
    }
    if (mapped.kind === 'empty') return;
    const writeTarget = await target();
    for (const plan of mapped.plans) {
      const result = await writePlan(writeTarget, plan);
      if (result.outcome === 'replaced')
        report({
          file,
          line: null,
          kind: 'replaced',
          reason: `session ${plan.header.id} was rewritten in place (not an extension): created again`,
        });
    }
  };

  const ready = (async () => {
    const ledger = options.dataDir === undefined ? undefined : (await Ledger.load(options.dataDir)).ledger;
    for (const owner of watched) {
      // Watching is opt-in and never creates a harness's folder: a missing one is reported.
      if (
        !(await fsp.stat(owner.root).then(
          (s) => s.isDirectory(),
          () => false,
        ))
      ) {
        report({ file: owner.root, line: null, kind: 'note', reason: 'not a folder: not watched' });
        continue;
      }
      const watcher = await openWatcher(owner.root, options.usePolling === true, report);
      watchers.push(watcher);
      // An error after start (a folder the OS would not watch) is reported; the rest keeps going.
      watcher.on('error', (error) =>
        report({
          file: owner.root,
          line: null,
          kind: 'note',
          reason: `watching failed: ${(error as Error).message}`,
        }),
      );
      watcher.on('add', (file) => changed(file, owner));
      watcher.on('change', (file) => changed(file, owner));
      watcher.on('unlink', (file) => changed(file, owner));
      // Files the catch-up stamped and that did not change since are known: only remember them.
      for (const unit of await owner.importer.discover(owner.root)) {
        const stat = await fsp.stat(unit.file).catch(() => undefined);
        if (stat === undefined) continue;
        const entry = ledger?.get(unit.file);
        for (const s of entry?.sessions ?? []) fileOf.set(s.id, unit.file);
        if (entry?.size === stat.size && entry.mtimeMs === stat.mtimeMs) sizes.set(unit.file, stat.size);
        else enqueue(unit.file, owner);
      }
    }
    await new Promise<void>((resolve) => {
      idleWaiters.push(resolve);
      settleIdle();
    });
  })();

  return {
    ready,
    idle: () =>
      new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        settleIdle();
      }),
    async close() {
      closed = true;
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
      await ready.catch(() => undefined);
      await Promise.all(watchers.map((w) => w.close()));
      await running;
    },
  };
}

/** The file as a unit of its harness (with its companions), or undefined when it is not a candidate. */
async function unitOf(owner: Watched, file: string): Promise<SourceUnit | undefined> {
  const units = await owner.importer.discover(path.dirname(file)).catch(() => []);
  return units.find((u) => u.file === file);
}

/**
 * A recursive watcher on `root`. When the OS refuses more watches (inotify's limit: thousands of
 * transcript folders), it falls back to polling and says so once.
 */
async function openWatcher(
  root: string,
  usePolling: boolean,
  report: (report: ImportReport) => void,
): Promise<FSWatcher> {
  const open = (polling: boolean): Promise<FSWatcher> =>
    new Promise((resolve, reject) => {
      const watcher = watch(root, {
        ignoreInitial: true,
        persistent: true,
        usePolling: polling,
        ...(polling ? { interval: 250 } : {}),
        // Spilled tool output and project memory are never transcripts.
        ignored: (p: string) => /[/\\](tool-results|memory)([/\\]|$)/.test(p),
      });
      const fail = (error: unknown): void => {
        void watcher.close();
        reject(error instanceof Error ? error : new Error(String(error)));
      };
      watcher.once('error', fail);
      watcher.once('ready', () => {
        watcher.off('error', fail);
        resolve(watcher);
      });
    });
  if (usePolling) return open(true);
  try {
    return await open(false);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOSPC' && code !== 'EMFILE') throw error;
    report({
      file: root,
      line: null,
      kind: 'note',
      reason: `the OS watch limit was reached (${code}); polling this folder every 250 ms instead (raise fs.inotify.max_user_watches to avoid it)`,
    });
    return open(true);
  }
}
