import { defined } from '@strand/session';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { ImportError } from '../errors.js';
import { importerFor } from '../harnesses.js';
import { Ledger, type LedgerEntry } from '../ledger/ledger.js';
import {
  compareStamps,
  folderStamps,
  stampUnit,
  unitHash,
  type FolderStamps,
  type UnitStamps,
} from '../ledger/stamps.js';
import type { ImportOptions, ImportSummary } from '../types.js';
import { chooseCopies, notImportedReason, staleCopyEntry } from './choose-copies.js';
import { recalledFolders, recorded, settle } from './folder-records.js';
import type { Peek, SourceUnit } from './harness-importer.js';
import type { FileOutcome } from './process-file.js';
import { RunTally } from './run-tally.js';
import { ahead } from '../source/read-ahead.js';
import { openLanes, runQueue, task, workerCount, type Changed } from './schedule.js';
import { DataFolder } from './data-folder.js';

/** Files mapped between two saves of the ledger. */
const BATCH = 128;
/** Changed files peeked at once (each peek reads the start of its file). */
const PEEKS_AHEAD = 16;

interface Pending {
  readonly unit: SourceUnit;
  readonly stamps: UnitStamps;
}

/**
 * Imports every transcript of one harness under `sourceDir` into the Strand data folder.
 *
 * A run: discover files → compare each with the ledger by size and mtime (unchanged files are not
 * read) → peek the changed ones to learn which session each is → among copies of one session keep
 * the best → map and write, parents of forks before their forks. Per-file problems are reports,
 * never exceptions; only a missing source folder or an unwritable ledger throws.
 * Source files are only ever opened for reading.
 */
export async function importTranscripts(options: ImportOptions): Promise<ImportSummary> {
  const importer = importerFor(options.harness);
  const root = path.resolve(options.sourceDir);
  const dataDir = path.resolve(options.dataDir);
  const stat = await fsp.stat(root).catch(() => undefined);
  if (stat === undefined || !stat.isDirectory())
    throw new ImportError('IMPORT_SOURCE_NOT_FOUND', `no such folder: ${root}`);
  // Before any folder is statted or listed: what changes after this falls past the stats taken.
  const startedAt = (options.now ?? Date.now)();
  const { ledger, problem } = await Ledger.load(dataDir);
  // The data folder may sit inside the source folder (`strand import codex .`): never read it.
  const recalled = recalledFolders(ledger, root, importer);
  const units = (await importer.discover(root, (folder) => recalled.get(folder))).filter(
    (u) => !isInside(u.file, dataDir),
  );
  /** The unit with its write-once folder listed; undefined when its file is gone since. */
  const listed = async (unit: SourceUnit): Promise<SourceUnit | undefined> =>
    unit.unlisted === true
      ? (await importer.discover(unit.writeOnceFolder!)).find((u) => u.file === unit.file)
      : unit;
  const tally = new RunTally(units.length);
  if (problem !== undefined) tally.note(path.join(dataDir, 'import-ledger.json'), problem);
  const compression = options.compression ?? 'zstd';
  const folder = new DataFolder(dataDir, compression);
  let done = 0;
  const progress = (file: string): void => options.onProgress?.(++done, units.length, file);
  options.onProgress?.(0, units.length, '');
  const entry = (
    pending: Pending,
    hash: string,
    sessions: LedgerEntry['sessions'],
    extra: Partial<LedgerEntry> = {},
  ): LedgerEntry => ({
    harness: importer.harness,
    size: pending.stamps.main.size,
    mtimeMs: pending.stamps.main.mtimeMs,
    hash,
    ...recorded(pending.unit, pending.stamps, false, startedAt),
    sessions,
    ...extra,
  });

  // 1. Stamps against the ledger. Unchanged files are settled here without being read.
  const changed: Pending[] = [];
  const unchanged = new Map<string, LedgerEntry>();
  // Stamped ahead of the comparison: a re-import that changes nothing is little but these stats,
  // and one unit's waiting on the thread pool overlaps the next ones'. An entry kept by folder is
  // compared by folder: the folder's stat and those of the files beside it, none of the folder's.
  // An unlisted unit (its folder's stat as recorded) is compared by the files beside the folder.
  const stampFor = async (unit: SourceUnit): Promise<UnitStamps | FolderStamps> => {
    const folder = ledger.get(unit.file)?.folder;
    if (folder !== undefined) return folderStamps(unit, folder);
    const whole = await listed(unit);
    if (whole === undefined) throw new Error('a file vanished while stamped');
    return stampUnit(whole);
  };
  const stamped = ahead(units, (unit) =>
    stampFor(unit).then(
      (stamps) => ({ unit, stamps }),
      (error: unknown) => ({ unit, error: error as Error }),
    ),
  );
  for await (const read of stamped) {
    let unit: SourceUnit | undefined = read.unit;
    const taken = 'error' in read ? undefined : read.stamps;
    const known = ledger.get(read.unit.file);
    let status = taken === undefined ? undefined : compareStamps(taken, known);
    // Kept by folder and not the same: the unit is hashed or read whole next, which takes every
    // file's stamp (the ledger records the stamps from before the read, never after) — listed
    // first where discovery did not list it.
    let stamps: UnitStamps | undefined;
    if (taken === undefined || !('byFolder' in taken)) stamps = taken;
    else if (status !== 'same') {
      unit = await listed(unit).catch(() => undefined);
      stamps = unit === undefined ? undefined : await stampUnit(unit).catch(() => undefined);
    }
    if (status === 'same' && known !== undefined) {
      const kept = settle(known, taken, startedAt);
      if (kept !== known) ledger.set(read.unit.file, kept);
      unchanged.set(read.unit.file, kept);
      continue;
    }
    if (unit === undefined) {
      tally.failedFile(read.unit.file, 'cannot read: a file vanished while stamped');
      progress(read.unit.file);
      continue;
    }
    if (stamps === undefined || status === undefined) {
      const reason = 'error' in read ? read.error.message : 'a file vanished while stamped';
      tally.failedFile(unit.file, `cannot read: ${reason}`);
      progress(unit.file);
      continue;
    }
    if (
      status === 'touched' &&
      known !== undefined &&
      (await unitHash(unit, stamps).catch(() => '')) === known.hash
    ) {
      const { folder: _before, ...rest } = known;
      ledger.set(unit.file, {
        ...rest,
        size: stamps.main.size,
        mtimeMs: stamps.main.mtimeMs,
        ...recorded(unit, stamps, known.folder !== undefined, startedAt),
      });
      status = 'same';
    }
    if (status === 'same' && known !== undefined) unchanged.set(unit.file, known);
    else changed.push({ unit, stamps });
  }

  const children: { file: string; id: string; parent: string }[] = [];
  // Worker lanes take a moment to start (each loads the importer and the writer): when there will
  // be some, they are started as soon as the changed files are known, and load while those files
  // are peeked and chosen between. Otherwise the lanes open once there is something to write.
  const sizes = changed.map((c) => c.stamps.main.size);
  let lanes = workerCount(options, sizes) > 0 ? openLanes(options, importer, folder, sizes) : undefined;
  // A failure to open them (the data folder cannot be prepared) is reported where they are needed.
  lanes?.catch(() => undefined);
  try {
    // 2. Peek the changed files; forks waiting for a parent that arrives now are retried.
    const candidates: Changed[] = [];
    const peekOf = (pending: Pending): Promise<Peek> =>
      importer.peek(pending.unit).catch((error: unknown) => ({
        kind: 'fail' as const,
        reason: `cannot read: ${(error as Error).message}`,
      }));
    const takePeek = async (pending: Pending, peek: Peek): Promise<void> => {
      if (peek.kind === 'fail') {
        tally.failedFile(pending.unit.file, peek.reason);
        progress(pending.unit.file);
        return;
      }
      if (peek.kind === 'skip') {
        tally.skippedFile(pending.unit.file, peek.reason, peek.line ?? null);
        ledger.set(
          pending.unit.file,
          entry(pending, await unitHash(pending.unit, pending.stamps).catch(() => ''), []),
        );
        progress(pending.unit.file);
        return;
      }
      candidates.push({
        ...pending,
        peek,
        file: pending.unit.file,
        primaryId: peek.primaryId,
        rank: peek.rank,
        size: pending.stamps.main.size,
      });
    };
    // Read ahead: each peek is a few small reads, which otherwise wait their turn one after another.
    for await (const { pending, peek } of ahead(
      changed,
      async (p) => ({ pending: p, peek: await peekOf(p) }),
      PEEKS_AHEAD,
    ))
      await takePeek(pending, peek);
    const arriving = new Set<string>(candidates.map((c) => c.primaryId));
    const contested = contestedSessions(unchanged);
    for (const [file, known] of [...unchanged]) {
      const parentArrives = known.awaitingParent !== undefined && arriving.has(known.awaitingParent);
      // Two unchanged files that both hold a session (a ledger from before live ingest marked the
      // copies it dropped) may have left it as the copy not chosen wrote it: both are read again
      // and chosen between, and the chosen one is compared with the stored log.
      const isContested =
        known.duplicateOf === undefined && known.primaryId !== undefined && contested.has(known.primaryId);
      if (!parentArrives && !isContested) continue;
      const unit = await listed(units.find((u) => u.file === file)!);
      unchanged.delete(file);
      if (unit === undefined) {
        tally.failedFile(file, 'cannot read: a file vanished while stamped');
        progress(file);
        continue;
      }
      const pending = { unit, stamps: await stampUnit(unit) };
      await takePeek(pending, await peekOf(pending));
    }

    // 3. Copies of one session: keep one, whether the others changed this run or not.
    const choice = chooseCopies(candidates, unchanged);
    linkParents(candidates, choice.winners, unchanged);
    for (const loser of choice.losers) {
      const pending = candidates.find((c) => c.file === loser.file);
      const duplicate = { primaryId: loser.primaryId, duplicateOf: loser.winner };
      if (pending !== undefined) {
        tally.skippedFile(loser.file, notImportedReason(loser.primaryId, loser.winner));
        ledger.set(
          loser.file,
          entry(pending, await unitHash(pending.unit, pending.stamps).catch(() => ''), [], {
            ...duplicate,
            rank: pending.rank,
          }),
        );
      } else {
        const known = unchanged.get(loser.file)!;
        unchanged.delete(loser.file);
        ledger.set(loser.file, staleCopyEntry(known, loser.primaryId, loser.winner));
      }
      progress(loser.file);
    }
    for (const [file, known] of unchanged) {
      tally.unchangedSessions(known.sessions.length);
      progress(file);
    }

    // 4. Map and write: plain transcripts on every lane, then forks one by one in this thread,
    //    parents (lower depth) first, so a parent present in this run is stored before its fork.
    const winners = candidates.filter((c) => choice.winners.has(c.file));
    const plain = winners.filter((c) => c.peek.forkParent === undefined);
    const forks = winners
      .filter((c) => c.peek.forkParent !== undefined)
      .sort((a, b) => a.peek.depth - b.peek.depth);
    const apply = (task: Changed, outcome: FileOutcome, stored: Set<string>): void => {
      tally.fileReports(outcome.skippedRecords, outcome.reports, outcome.ignored);
      const r = outcome.result;
      if (r.kind === 'failed') tally.failedFile(task.file, r.reason);
      else if (r.kind === 'empty') {
        tally.skippedFile(task.file, r.reason);
        ledger.set(
          task.file,
          entry(task, r.hash, [], {
            primaryId: task.primaryId,
            rank: task.rank,
            ...recorded(task.unit, task.stamps, outcome.wholeFolder === true, startedAt),
          }),
        );
      } else {
        for (const s of r.sessions) {
          tally.session(s.id, task.file, s.outcome);
          stored.add(s.id);
        }
        for (const note of r.notes) tally.note(task.file, note);
        for (const child of r.children) children.push({ file: task.file, ...child });
        // A file whose write failed stays out of the ledger: the next run maps it again.
        if (r.digests !== undefined && r.digests.length > 0) options.digest?.collect(r.digests);
        if (r.writeError !== undefined) tally.failedFile(task.file, r.writeError);
        else {
          const sessions = r.sessions.map(({ id, events }) => ({ id, events }));
          ledger.set(
            task.file,
            entry(task, r.hash, sessions, {
              primaryId: task.primaryId,
              rank: task.rank,
              ...recorded(task.unit, task.stamps, outcome.wholeFolder === true, startedAt),
              ...defined({ awaitingParent: r.awaitingParent }),
            }),
          );
        }
      }
      progress(task.file);
    };

    if (winners.length > 0) {
      lanes ??= openLanes(
        options,
        importer,
        folder,
        plain.map((c) => c.size),
      );
      const { main, all } = await lanes;
      const { stored } = folder;
      const perLane = Math.max(1, options.concurrency ?? 4);
      // One queue for the whole run: lanes never wait for each other between files. The ledger is
      // saved every BATCH files as they finish (progress survives a crash of a long import; a lost
      // ledger only costs re-mapping), while the lanes go on; a failed save stops the run.
      let finished = 0;
      let saving = Promise.resolve();
      let saveError: Error | undefined;
      await runQueue(
        plain,
        all,
        perLane,
        (task, outcome) => {
          apply(task, outcome, stored);
          if (++finished % BATCH === 0)
            saving = saving.then(() =>
              saveError === undefined
                ? ledger.save().catch((error: unknown) => {
                    saveError = error as Error;
                  })
                : undefined,
            );
        },
        () => saveError !== undefined,
      );
      await saving;
      if (saveError !== undefined) throw saveError;
      for (const fork of forks) apply(fork, await main.run(task(fork)), stored);
    }
  } finally {
    await (await lanes?.catch(() => undefined))?.close();
  }

  // 5. A subagent child whose parent is neither stored nor in this run still imports (its
  //    header names the parent, so importing the parent later links them); say so.
  if (children.length > 0) {
    const { stored } = folder;
    for (const child of children) {
      if (!stored.has(child.parent))
        tally.note(
          child.file,
          `subagent ${child.id}: parent session ${child.parent} is not in the data folder; imported as a child of an absent parent`,
        );
    }
  }

  // Files that vanished since an earlier run leave the ledger; their sessions stay stored.
  const seen = new Set(units.map((u) => u.file));
  for (const [file] of [...ledger.under(root, options.harness)]) if (!seen.has(file)) ledger.delete(file);
  await ledger.save();
  return tally.summary();
}

/** Sessions more than one unchanged file holds (none of them marked a stale copy of another). */
function contestedSessions(unchanged: ReadonlyMap<string, LedgerEntry>): Set<string> {
  const holders = new Set<string>();
  const contested = new Set<string>();
  for (const entry of unchanged.values()) {
    if (entry.primaryId === undefined || entry.duplicateOf !== undefined) continue;
    if (holders.has(entry.primaryId)) contested.add(entry.primaryId);
    holders.add(entry.primaryId);
  }
  return contested;
}

/**
 * Points each candidate whose mapping reads its parent's transcript at the file holding that
 * session: a winner of this run, else an unchanged file the ledger says holds it.
 */
function linkParents(
  candidates: Changed[],
  winners: ReadonlySet<string>,
  unchanged: ReadonlyMap<string, LedgerEntry>,
): void {
  const holder = new Map<string, string>();
  for (const [file, entry] of unchanged)
    if (entry.primaryId !== undefined && entry.duplicateOf === undefined) holder.set(entry.primaryId, file);
  for (const c of candidates) if (winners.has(c.file)) holder.set(c.primaryId, c.file);
  candidates.forEach((c, i) => {
    const parentFile = c.peek.readsParent === undefined ? undefined : holder.get(c.peek.readsParent);
    if (parentFile !== undefined) candidates[i] = { ...c, unit: { ...c.unit, parentFile } };
  });
}

/**
 * Whether `file` lies below `dir` (both resolved, as discovery gives them). A prefix test, not
 * `path.relative`, which costs more than the rest of a file's discovery (a Cline store: thousands);
 * Windows compares paths without regard to case.
 */
export function isInside(file: string, dir: string): boolean {
  const prefix = dir.endsWith(path.sep) ? dir : dir + path.sep;
  if (file.length <= prefix.length) return false;
  return path.sep === '/'
    ? file.startsWith(prefix)
    : file.slice(0, prefix.length).toLowerCase() === prefix.toLowerCase();
}
