import { promises as fsp, type Stats } from 'node:fs';
import path from 'node:path';
import type { FSWatcher } from 'chokidar';
import type { SessionPersistence } from '@strand/persistence';
import { importerFor } from '../harnesses.js';
import type { MappedFile } from '../mapping/session-plan.js';
import type { Candidate } from '../run/choose-copies.js';
import type { HarnessImporter, SessionPeek, SourceUnit } from '../run/harness-importer.js';
import type { Harness, ImportReport } from '../types.js';
import { exportSkipReason } from '../mapping/strand-export.js';
import { writePlan, type WriteTarget } from '../write/write-plan.js';
import { CompanionPlacements } from './companion-placements.js';
import { CopyHolders } from './copy-holders.js';
import { FileFollow, type FileRead } from './file-follow.js';
import { watchFolder } from './folder-watch.js';
import { IngestQueue } from './ingest-queue.js';
import { LedgerSaver } from './ledger-saver.js';
import { appendThroughStore, type LiveTarget } from './live-append.js';

/**
 * Files whose fold live ingest keeps between reads. A fold holds the events its file maps to, so
 * the cap bounds memory; sessions being written at once are few (a person runs a handful).
 */
const FOLLOWED_FILES = 32;

/** One `--watch <harness>:<dir>`. */
export interface WatchSpec {
  readonly harness: Harness;
  readonly dir: string;
}

export interface LiveIngestOptions {
  readonly watches: readonly WatchSpec[];
  /**
   * The running host's store: persistence for creates, the live store for appends; or a function
   * that opens it, called once the catch-up is done (while the ledger is compared with the files).
   * Files are read only once it is open.
   */
  readonly target: IngestTarget | (() => Promise<IngestTarget>);
  /**
   * The caller's catch-up (the one-shot `importTranscripts`), run once every folder is watched:
   * a file written before is in the import's scan, one written after is an event. Without it the
   * caller caught up before starting the ingest, and every file is compared with the ledger.
   */
  readonly catchUp?: () => Promise<void>;
  /**
   * The data folder whose import ledger the catch-up wrote: files it stamped are not re-read at
   * start, and every file live ingest writes is stamped in it, so a restart resumes from there.
   */
  readonly dataDir?: string;
  /** What ingest saw that a person should know (a truncated or deleted file, a file that failed). */
  readonly onReport?: (report: ImportReport) => void;
  /** Quiet time after a change before the file is read (default 20 ms): a burst of writes is one read. */
  readonly settleMs?: number;
  /** Poll instead of using OS watches (the fallback when the OS watch limit is reached). */
  readonly usePolling?: boolean;
  /** Told of every read of a transcript: how many bytes and lines (tests and benches count them). */
  readonly onRead?: (read: FileRead) => void;
}

export type IngestTarget = LiveTarget & { readonly persistence: SessionPersistence };

export interface LiveIngest {
  /**
   * Resolves when every folder is watched, the catch-up (a `target` function) is done and the
   * files changed since were read. Rejects when the catch-up fails.
   */
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

/** A file read through its fold, with what identifies it. */
interface Followed {
  readonly follow: FileFollow;
  readonly unit: SourceUnit;
  readonly peek: SessionPeek;
}

/**
 * Live ingest: follows transcripts while their harness writes them. A file is read whole once
 * (the one-shot importer's mapping as a fold, written through `writePlan`: create, append, or
 * replace when the content is no extension); from then on each change feeds the fold only the
 * complete lines appended since, and the events past what was written are appended through the
 * live store, so followers receive them at once — the cost of a change is what was appended, not
 * the file. A file that no longer continues what was read (shorter, another inode, or other bytes
 * at its start or where the last read stopped) is read whole again under the same rules. A
 * partial last line waits for its newline. A file that shrank or vanished is reported and its
 * session kept. Of two files that are one session, the one the one-shot import would choose
 * (`byPreference`) is read; the other is reported as a copy until it is preferred. Compressed
 * rollouts and whole-JSON chats are mapped whole on every change. Files
 * are read one at a time, in the order they changed; a file that changes again while it is read
 * is read once more afterwards (`IngestQueue`). Every write is stamped in the import ledger
 * (`LedgerSaver`), saved whenever the queue empties.
 *
 * Catch-up is the one-shot import (`importTranscripts`): given as `catchUp`, it runs once the
 * folders are watched, alone (it has the machine to itself, so catching up runs at the import's
 * rate); otherwise the caller caught up before. Once it is done, and while `target` opens, files
 * whose size or mtime differ from the ledger's stamps are queued, so nothing written during or
 * after the catch-up is missed.
 */
export function startLiveIngest(options: LiveIngestOptions): LiveIngest {
  const report = options.onReport ?? (() => undefined);
  const onRead = options.onRead ?? (() => undefined);
  const watched: Watched[] = options.watches.map((spec) => ({
    spec,
    importer: importerFor(spec.harness),
    root: path.resolve(spec.dir),
  }));
  const sizes = new Map<string, number>();
  const follows = new Map<string, Followed>();
  /** Session id → the file that holds it, for children whose mapping reads their parent. */
  const fileOf = new Map<string, string>();
  const ledger = new LedgerSaver(report);
  const holders = new CopyHolders(ledger, report, (file) => follows.delete(file));
  const placements = new CompanionPlacements();
  let stored: Set<string> | undefined;
  const watchers: FSWatcher[] = [];
  let resolvePrepared!: (target: IngestTarget) => void;
  let rejectPrepared!: (error: unknown) => void;
  /** The write side, once the catch-up is done and the start-up scan queued what changed. */
  const prepared = new Promise<IngestTarget>((resolve, reject) => {
    resolvePrepared = resolve;
    rejectPrepared = reject;
  });
  prepared.catch(() => undefined); // surfaced through `ready`

  const queue = new IngestQueue<Watched>({
    settleMs: options.settleMs ?? 20,
    opened: prepared,
    read: async (file, owner) => {
      try {
        await ingestFile(file, owner);
        if (owner.importer.placedByCompanions === true)
          for (const moved of await placements.moved(file, owner.importer)) {
            follows.delete(moved);
            queue.enqueue(moved, owner);
          }
      } catch (error) {
        // One file's failure is one report; the others keep being followed.
        follows.delete(file);
        report({ file, line: null, kind: 'failed', reason: (error as Error).message });
      }
    },
    drained: () => ledger.save(),
    onError: (error) => report({ file: '', line: null, kind: 'failed', reason: (error as Error).message }),
  });

  const writeTarget = async (): Promise<WriteTarget> => {
    const live = await prepared;
    stored ??= new Set((await live.persistence.list()).map((s) => s.header.id as string));
    return {
      persistence: live.persistence,
      stored,
      appendMissing: (log, suffix) => appendThroughStore(live, log.header.id, suffix),
    };
  };

  const ingestFile = async (file: string, owner: Watched): Promise<void> => {
    if (owner.importer.companionChangesUnit === true) {
      // A write that reached only a database's WAL: the database is what changed.
      const unit = await unitWithCompanion(owner, file);
      if (unit !== undefined) file = unit.file;
    }
    const stat = await fsp.stat(file).catch(() => undefined);
    if (stat === undefined) {
      follows.delete(file);
      if (sizes.delete(file))
        report({ file, line: null, kind: 'note', reason: 'the transcript was deleted; its session is kept' });
      return;
    }
    const before = sizes.get(file);
    sizes.set(file, stat.size);
    if (before !== undefined && stat.size < before) {
      follows.delete(file);
      report({
        file,
        line: null,
        kind: 'note',
        reason: `the transcript shrank from ${before} to ${stat.size} bytes; its session is kept as it was`,
      });
      return;
    }
    const known = follows.get(file);
    if (known !== undefined) {
      // Most recently read last: the map's order is the eviction order.
      follows.delete(file);
      follows.set(file, known);
      let checked = 0;
      if (await known.follow.continues(stat, (n) => (checked += n))) {
        const mapped = await known.follow.read(stat, 'appended', (r) =>
          onRead({ ...r, bytes: r.bytes + checked }),
        );
        await writeMapped(owner, known, mapped, stat);
        return;
      }
      follows.delete(file); // rewritten: read whole again, compared with what is stored
    }
    const unit = await unitOf(owner, file);
    if (unit === undefined) return;
    const peek = await owner.importer.peek(unit);
    if (peek.kind === 'fail') {
      report({ file, line: null, kind: 'failed', reason: peek.reason });
      return;
    }
    if (peek.kind === 'skip') return; // not (yet) a conversation: read again when it grows
    placements.placed(file, peek);
    const from = await holders.hold(file, peek, stat.size);
    if (from === false) return;
    fileOf.set(peek.primaryId, file);
    const parentFile = peek.readsParent === undefined ? undefined : fileOf.get(peek.readsParent);
    const linked = parentFile === undefined ? unit : { ...unit, parentFile };
    const fold = await owner.importer.incremental(linked, peek);
    if (fold === undefined) {
      const mapped = await owner.importer.map(linked, peek);
      onRead({ file, mode: 'whole', bytes: stat.size, lines: 0 });
      await writeMapped(owner, { unit: linked, peek }, mapped, stat, from);
      return;
    }
    const followed: Followed = { follow: new FileFollow(file, fold), unit: linked, peek };
    const mapped = await followed.follow.read(stat, 'whole', onRead);
    follows.set(file, followed);
    // A fold holds its file's events in memory: only the files read most recently keep theirs;
    // the others are read whole on their next change.
    for (const oldest of follows.keys()) {
      if (follows.size <= FOLLOWED_FILES) break;
      follows.delete(oldest);
    }
    await writeMapped(owner, followed, mapped, stat, from);
  };

  /**
   * Writes what a file maps to: for a session this file's follow wrote, only the events past what
   * it wrote (appended through the live store, no stored log read); for any other, `writePlan`'s
   * comparison with the stored log. Then stamps the file in the ledger.
   */
  const writeMapped = async (
    owner: Watched,
    read: Omit<Followed, 'follow'> & { readonly follow?: FileFollow },
    mapped: MappedFile,
    stat: Stats,
    /** The copy this file took its sessions over from (see `CopyHolders.hold`). */
    from?: string,
  ): Promise<void> => {
    const { unit, peek, follow } = read;
    const file = unit.file;
    if (mapped.kind === 'failed') {
      follows.delete(file);
      report({ file, line: null, kind: 'failed', reason: mapped.reason });
      return;
    }
    if (mapped.kind === 'empty') return;
    const target = await writeTarget();
    // Still exactly Strand's export of a stored session: a second copy of it, not a session. Once
    // the harness continues the file, its next read imports it, linked to the origin.
    const exportOf = await exportSkipReason(file, mapped, target.stored);
    if (exportOf !== undefined) {
      report({ file, line: null, kind: 'skipped-file', reason: exportOf });
      return;
    }
    const sessions: { id: string; events: number }[] = [];
    let awaitingParent: string | undefined;
    for (const plan of mapped.plans) {
      const id = plan.header.id;
      const suffix = follow?.suffixOf(plan);
      if (follow !== undefined && suffix !== undefined) {
        if (suffix.length > 0) {
          for (const attachment of follow.newAttachments(plan).values())
            await target.persistence.putAttachment(id, attachment);
          await appendThroughStore(await prepared, id, suffix);
        }
        const inherited = follow.inheritedOf(id);
        follow.wrote(plan, inherited);
        sessions.push({ id, events: inherited + plan.events.length });
        continue;
      }
      const result = await writePlan(target, plan);
      const told = writeReason(id, result.outcome === 'replaced', from);
      if (told !== undefined) report({ file, line: null, ...told });
      // A fork written unseeded goes through the comparison again next time (seeded once its
      // parent is stored).
      const seeded = result.awaitingParent === undefined && result.seedProblem === undefined;
      follow?.wrote(plan, result.events - plan.events.length, seeded);
      if (result.awaitingParent !== undefined) awaitingParent = result.awaitingParent;
      sessions.push({ id, events: result.events });
    }
    await ledger.stamp({
      harness: owner.spec.harness,
      unit,
      // A partial last line is not consumed: the stamp is of the complete lines only, so a restart
      // finds the file changed and maps that line once it is whole.
      size: follow?.offset ?? stat.size,
      mtimeMs: stat.mtimeMs,
      hash: follow?.digest ?? mapped.hash,
      primaryId: peek.primaryId,
      rank: peek.rank,
      sessions,
      awaitingParent,
    });
  };

  /** Watches every folder that exists; a missing one is reported. */
  const watchAll = async (): Promise<Watched[]> => {
    const open: Watched[] = [];
    for (const owner of watched) {
      const watcher = await watchFolder(owner.root, options.usePolling === true, report, (file) =>
        queue.changed(file, owner),
      );
      if (watcher === undefined) continue;
      watchers.push(watcher);
      open.push(owner);
    }
    return open;
  };

  /**
   * Compares the watched files with the ledger: those stamped that did not change since are only
   * remembered, the others queued; the holder of each session the ledger names is chosen.
   */
  const queueChanged = async (open: readonly Watched[]): Promise<void> => {
    /** Files the ledger says hold a session (not a stale copy), to choose the holder of each. */
    const claims: (Candidate & { readonly owner: Watched })[] = [];
    for (const owner of open) {
      // The files to compare with the ledger: after a catch-up, the ones it stamped (a file it
      // did not stamp was not a conversation yet or failed, and is read when it next changes);
      // without one, every file there (the caller caught up before the folder was watched).
      const files =
        options.catchUp !== undefined && ledger.loaded
          ? ledger.filesUnder(owner.root, owner.spec.harness)
          : (await owner.importer.discover(owner.root)).map((unit) => unit.file);
      const stats = await Promise.all(files.map((file) => fsp.stat(file).catch(() => undefined)));
      for (const [i, file] of files.entries()) {
        const stat = stats[i];
        if (stat === undefined) continue;
        const entry = ledger.get(file);
        for (const s of entry?.sessions ?? []) fileOf.set(s.id, file);
        if (entry?.primaryId !== undefined && entry.duplicateOf === undefined)
          claims.push({ file, primaryId: entry.primaryId, rank: entry.rank ?? 0, size: stat.size, owner });
        if (entry?.size === stat.size && entry.mtimeMs === stat.mtimeMs) sizes.set(file, stat.size);
        else queue.enqueue(file, owner);
      }
    }
    for (const winner of holders.holdClaimed(claims)) {
      for (const s of ledger.get(winner.file)?.sessions ?? []) fileOf.set(s.id, winner.file);
      queue.enqueue(winner.file, winner.owner);
    }
  };

  const ready = (async () => {
    let opening: Promise<IngestTarget> | undefined;
    try {
      // Watch first, then catch up: from the moment a folder is watched, every change is an event
      // (queued until the target is open), so the catch-up's own scan of the folder sees every
      // file written before. Nothing else runs beside the import, which has both cores.
      const open = await watchAll();
      await options.catchUp?.();
      opening = typeof options.target === 'function' ? options.target() : Promise.resolve(options.target);
      opening.catch(() => undefined); // awaited below
      if (options.dataDir !== undefined) await ledger.load(options.dataDir);
      await queueChanged(open);
      resolvePrepared(await opening);
    } catch (error) {
      await opening?.catch(() => undefined);
      rejectPrepared(error);
      throw error;
    }
    await queue.idle();
  })();

  return {
    ready,
    idle: () => queue.idle(),
    async close() {
      queue.stop();
      await ready.catch(() => undefined);
      await Promise.all(watchers.map((w) => w.close()));
      await queue.settled();
      await ledger.save();
    },
  };
}

/** The unit in `file`'s folder that has `file` as a companion, if any. */
async function unitWithCompanion(owner: Watched, file: string): Promise<SourceUnit | undefined> {
  const units = await owner.importer.discover(path.dirname(file)).catch(() => []);
  return units.find((u) => u.companions.includes(file));
}

/** The file as a unit of its harness (with its companions), or undefined when it is not a candidate. */
async function unitOf(owner: Watched, file: string): Promise<SourceUnit | undefined> {
  if (owner.importer.unitOf !== undefined) return owner.importer.unitOf(owner.root, file);
  const units = await owner.importer.discover(path.dirname(file)).catch(() => []);
  return units.find((u) => u.file === file);
}

/**
 * What writing a session reports: a copy that took the session over from another names both
 * files (a second copy is not a rewrite of the first); a followed file rewritten in place says so.
 */
function writeReason(
  id: string,
  replaced: boolean,
  from: string | undefined,
): Pick<ImportReport, 'kind' | 'reason'> | undefined {
  if (from !== undefined)
    return replaced
      ? {
          kind: 'replaced',
          reason: `session ${id} follows this copy instead of ${from} (the copy the one-shot import chooses); it is no extension of what that copy wrote: created again`,
        }
      : {
          kind: 'note',
          reason: `session ${id} follows this copy instead of ${from} (the copy the one-shot import chooses)`,
        };
  return replaced
    ? { kind: 'replaced', reason: `session ${id} was rewritten in place (not an extension): created again` }
    : undefined;
}
