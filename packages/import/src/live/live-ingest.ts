import { promises as fsp, type Stats } from 'node:fs';
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import type { SessionPersistence } from '@strand/persistence';
import { importerFor } from '../harnesses.js';
import { LEDGER_FILE, Ledger } from '../ledger/ledger.js';
import { combineHashes, stampUnit } from '../ledger/stamps.js';
import type { MappedFile } from '../mapping/session-plan.js';
import {
  byPreference,
  chooseCopies,
  notImportedReason,
  staleCopyEntry,
  type Candidate,
} from '../run/choose-copies.js';
import type { HarnessImporter, SessionPeek, SourceUnit } from '../run/harness-importer.js';
import { hashFile } from '../source/file-hash.js';
import type { Harness, ImportReport } from '../types.js';
import { writePlan, type WriteTarget } from '../write/write-plan.js';
import { FileFollow, type FileRead } from './file-follow.js';
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
 * is read once more afterwards. Every write is stamped in the import ledger.
 *
 * Catch-up is the one-shot import (`importTranscripts`): given as `catchUp`, it runs once the
 * folders are watched, alone (it has the machine to itself, so catching up runs at the import's
 * rate); otherwise the caller caught up before. Once it is done, and while `target` opens, files
 * whose size or mtime differ from the ledger's stamps are queued, so nothing written during or
 * after the catch-up is missed.
 */
export function startLiveIngest(options: LiveIngestOptions): LiveIngest {
  const settleMs = options.settleMs ?? 20;
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
  /**
   * Primary session id → the copy of it that is imported, and its rank. Another file of the same
   * session (Gemini CLI starts a stub file when it resumes a chat in a later minute) is read only
   * once it is preferred over this one (`byPreference`, as the one-shot import chooses).
   */
  const holders = new Map<string, { readonly file: string; readonly rank: number }>();
  /**
   * A file preferred at start over another file the ledger said held its session → that copy,
   * until the file is read: the write's report names both (a second copy is not a rewrite).
   */
  const displaced = new Map<string, string>();
  /** Copies already reported as such, so a stale copy that keeps changing is one note. */
  const reportedCopies = new Set<string>();
  /** File → where its last peek placed it, for importers whose placement reads companions. */
  const placements = new Map<string, string>();
  const pending = new Map<string, ReturnType<typeof setTimeout>>();
  const queue: { file: string; owner: Watched }[] = [];
  const queued = new Set<string>();
  let running: Promise<void> | undefined;
  let idleWaiters: (() => void)[] = [];
  let closed = false;
  let stored: Set<string> | undefined;
  let ledger: Ledger | undefined;
  let ledgerDirty = false;
  const watchers: FSWatcher[] = [];
  let resolvePrepared!: (target: IngestTarget) => void;
  let rejectPrepared!: (error: unknown) => void;
  /** The write side, once the catch-up is done and the start-up scan queued what changed. */
  const prepared = new Promise<IngestTarget>((resolve, reject) => {
    resolvePrepared = resolve;
    rejectPrepared = reject;
  });
  prepared.catch(() => undefined); // surfaced through `ready`

  const writeTarget = async (): Promise<WriteTarget> => {
    const live = await prepared;
    stored ??= new Set((await live.persistence.list()).map((s) => s.header.id as string));
    return {
      persistence: live.persistence,
      stored,
      appendMissing: (log, suffix) => appendThroughStore(live, log.header.id, suffix),
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
    // Nothing is read before the catch-up is done; if it failed, nothing is read at all.
    if (
      !(await prepared.then(
        () => true,
        () => false,
      ))
    ) {
      queue.length = 0;
      queued.clear();
      return;
    }
    // The ledger is saved once the queue is empty; a file queued meanwhile is read before this
    // drain ends (a later enqueue of it would not start another one).
    do {
      while (queue.length > 0 && !closed) {
        const next = queue.shift()!;
        queued.delete(next.file);
        try {
          await ingestFile(next.file, next.owner);
          if (next.owner.importer.placedByCompanions === true) await rePlace(next.file, next.owner);
        } catch (error) {
          // One file's failure is one report; the others keep being followed.
          follows.delete(next.file);
          report({ file: next.file, line: null, kind: 'failed', reason: (error as Error).message });
        }
      }
      await saveLedger();
    } while (queue.length > 0 && !closed);
  };

  /** The ledger only accelerates a restart: a failure to write it is a note, never a stop. */
  const saveLedger = async (): Promise<void> => {
    if (ledger === undefined || !ledgerDirty) return;
    ledgerDirty = false;
    await ledger
      .save()
      .catch((error: unknown) =>
        report({ file: LEDGER_FILE, line: null, kind: 'note', reason: (error as Error).message }),
      );
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
    placements.set(file, placementOf(peek));
    const from = await holdsSession(file, peek, stat.size);
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
   * A file whose session depends on its companions' content (a Gemini nested chat is a child once
   * the person's chat records the call that ran it, which gemini-cli does when the call completes,
   * after the nested chat's last write) is peeked again when one of them changes; one placed
   * elsewhere now is read whole again (compared with what is stored: replaced, or a new session).
   */
  const rePlace = async (file: string, owner: Watched): Promise<void> => {
    for (const unit of await owner.importer.discover(path.dirname(file)).catch(() => [])) {
      const before = placements.get(unit.file);
      if (before === undefined || !unit.companions.includes(file)) continue;
      const peek = await owner.importer.peek(unit);
      if (peek.kind !== 'session' || placementOf(peek) === before) continue;
      follows.delete(unit.file);
      enqueue(unit.file, owner);
    }
  };

  /**
   * Whether `file` is the copy of its session to import: no other file holds the session, or the
   * one that does is gone or no longer preferred (`byPreference`, the one-shot import's order).
   * False when it is not: it is reported once, and read again when it changes. Otherwise the
   * copy it takes the session over from, if any: that one stops being followed (its next change
   * is compared again) and is a stale copy in the ledger, so a restart does not take it back.
   */
  const holdsSession = async (
    file: string,
    peek: SessionPeek,
    size: number,
  ): Promise<false | string | undefined> => {
    const primaryId = peek.primaryId;
    const holder = holders.get(primaryId);
    let from = displaced.get(file);
    if (holder !== undefined && holder.file !== file) {
      const held = await fsp.stat(holder.file).catch(() => undefined);
      const self = { file, primaryId, rank: peek.rank, size };
      if (held !== undefined && byPreference({ ...holder, primaryId, size: held.size }, self) < 0) {
        if (!reportedCopies.has(file)) {
          reportedCopies.add(file);
          report({
            file,
            line: null,
            kind: 'skipped-file',
            reason: notImportedReason(primaryId, holder.file),
          });
        }
        return false;
      }
      follows.delete(holder.file);
      from = holder.file;
      const stale = ledger?.get(holder.file);
      if (stale !== undefined) {
        ledger!.set(holder.file, staleCopyEntry(stale, primaryId, file));
        ledgerDirty = true;
      }
    }
    reportedCopies.delete(file);
    holders.set(primaryId, { file, rank: peek.rank });
    displaced.delete(file);
    return from;
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
    /** The copy this file took its sessions over from (see `holdsSession`). */
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
    if (ledger === undefined) return;
    const stamps = await stampUnit(unit).catch(() => undefined);
    if (stamps === undefined) return; // gone since: the next event says so
    const companions: string[] = [];
    for (const c of stamps.companions) companions.push(await hashFile(c.path).catch(() => ''));
    ledger.set(file, {
      harness: owner.spec.harness,
      // A partial last line is not consumed: the stamp is of the complete lines only, so a restart
      // finds the file changed and maps that line once it is whole.
      size: follow?.offset ?? stat.size,
      mtimeMs: stat.mtimeMs,
      hash: combineHashes(follow?.digest ?? mapped.hash, companions),
      companions: stamps.companions,
      primaryId: peek.primaryId,
      rank: peek.rank,
      sessions,
      ...(awaitingParent === undefined ? {} : { awaitingParent }),
    });
    ledgerDirty = true;
  };

  /**
   * The holder of each session the ledger names, by the one-shot import's choice. Two files that
   * both claim one (a ledger from before live ingest marked the copies it dropped) may have left
   * the stored log as the other copy wrote it: the preferred one is read again and compared with
   * it (`writePlan`), and the other marked a stale copy.
   */
  const holdClaimed = (claims: readonly (Candidate & { readonly owner: Watched })[]): void => {
    const choice = chooseCopies(claims, new Map());
    for (const c of claims)
      if (choice.winners.has(c.file)) holders.set(c.primaryId, { file: c.file, rank: c.rank });
    for (const loser of choice.losers) {
      const winner = claims.find((c) => c.file === loser.winner)!;
      const entry = ledger?.get(loser.file);
      if (entry !== undefined) ledger!.set(loser.file, staleCopyEntry(entry, loser.primaryId, winner.file));
      ledgerDirty = true;
      for (const s of ledger?.get(winner.file)?.sessions ?? []) fileOf.set(s.id, winner.file);
      displaced.set(winner.file, loser.file);
      enqueue(winner.file, winner.owner);
    }
  };

  /** Watches every folder that exists; a missing one is reported. */
  const watchAll = async (): Promise<Watched[]> => {
    const open: Watched[] = [];
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
      open.push(owner);
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
    }
    return open;
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
      if (options.dataDir !== undefined) ledger = (await Ledger.load(options.dataDir)).ledger;
      /** Files the ledger says hold a session (not a stale copy), to choose the holder of each. */
      const claims: (Candidate & { readonly owner: Watched })[] = [];
      for (const owner of open) {
        // The files to compare with the ledger: after a catch-up, the ones it stamped (a file it
        // did not stamp was not a conversation yet or failed, and is read when it next changes);
        // without one, every file there (the caller caught up before the folder was watched).
        const files =
          options.catchUp !== undefined && ledger !== undefined
            ? [...ledger.under(owner.root, owner.spec.harness)].map(([file]) => file)
            : (await owner.importer.discover(owner.root)).map((unit) => unit.file);
        // Files stamped that did not change since are known: only remember them.
        const stats = await Promise.all(files.map((file) => fsp.stat(file).catch(() => undefined)));
        for (const [i, file] of files.entries()) {
          const stat = stats[i];
          if (stat === undefined) continue;
          const entry = ledger?.get(file);
          for (const s of entry?.sessions ?? []) fileOf.set(s.id, file);
          if (entry?.primaryId !== undefined && entry.duplicateOf === undefined)
            claims.push({ file, primaryId: entry.primaryId, rank: entry.rank ?? 0, size: stat.size, owner });
          if (entry?.size === stat.size && entry.mtimeMs === stat.mtimeMs) sizes.set(file, stat.size);
          else enqueue(file, owner);
        }
      }
      holdClaimed(claims);
      resolvePrepared(await opening);
    } catch (error) {
      await opening?.catch(() => undefined);
      rejectPrepared(error);
      throw error;
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
      await saveLedger();
    },
  };
}

/**
 * What a peek says of where a file's session goes: its id, its depth (a child or not) and the
 * facts the mapping takes from the peek (a child's label).
 */
function placementOf(peek: SessionPeek): string {
  return JSON.stringify([peek.primaryId, peek.depth, peek.facts ?? null]);
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
        // Spilled tool output and project memory are never transcripts; nor are dependencies and
        // git's own files in the project trees aider histories are watched in.
        ignored: (p: string) => /[/\\](tool-results|memory|node_modules|\.git)([/\\]|$)/.test(p),
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
