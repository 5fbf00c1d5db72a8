import { promises as fsp, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { hashBytes, hashFile } from '../source/file-hash.js';
import type { SourceUnit } from '../run/harness-importer.js';
import type { CompanionStamp, FileStamp, FolderStamp, LedgerEntry } from './ledger.js';

export interface UnitStamps {
  readonly main: FileStamp;
  /** Every companion, one stamp each. */
  readonly companions: readonly CompanionStamp[];
  /**
   * The unit's `writeOnceFolder` as a whole: its files listed (as `size`), its mtime, and its
   * ctime where discovery statted it before listing it (`SourceUnit.folderStat`).
   */
  readonly folder?: FolderStamp;
}

/**
 * What a ledger entry kept by folder is compared with (`folderStamps`): the write-once folder as
 * a whole and the companions outside it — none of the folder's files is looked at.
 */
export interface FolderStamps {
  readonly folder: FolderStamp;
  readonly companions: readonly CompanionStamp[];
  readonly byFolder: true;
}

/** One stamp of every file of the unit (and of its write-once folder as a whole, if it has one). */
export function stampUnit(unit: SourceUnit): Promise<UnitStamps> {
  return stampFiles(unit, unit.companions);
}

/**
 * The stamps a ledger entry kept by folder (`recorded`) is compared with: the unit's write-once
 * folder (its listing and mtime, from discovery's stat) and the companions outside it — one stat
 * for an OpenHands conversation of thousands of event files. No event file is statted, not even
 * the first or the newest: a file added, removed or renamed over moves the folder (its listing or
 * its mtime), and the files of a write-once folder are written once — a file rewritten in place
 * under its name is not seen. A folder discovery did not list (`SourceUnit.unlisted`: its stat was
 * the recorded one) is taken as recorded.
 */
export async function folderStamps(
  unit: SourceUnit,
  recorded: FolderStamp,
): Promise<UnitStamps | FolderStamps> {
  if (unit.writeOnceFolder === undefined) return stampUnit(unit);
  const outside = foldedCompanions(unit.companions, unit.writeOnceFolder);
  const folder = unit.unlisted === true ? recorded : await stampFolder(unit);
  return { folder: folder!, companions: present(outside, outside.map(statIfPresent)), byFolder: true };
}

/** Coarse kernel clocks tick every 1–10 ms; this much leaves room to spare. */
const FINE_GRANULE_MS = 100;
/** FAT keeps times to 2 s, ext4 with small inodes and HFS+ to 1 s: their times are whole seconds. */
const COARSE_GRANULE_MS = 2_000;

/**
 * Whether a write-once folder's stat (its ctime `ctimeMs`, taken before the folder was listed) may
 * stand for its listing in later runs: whether the folder's last change lay at least a timestamp
 * granule before `startedAtMs`, a clock reading taken before the listing. Only then does a file
 * created after the listing — after `startedAtMs` — fall in a later granule and move the folder's
 * mtime and ctime; one created in the stat's own granule would leave both as recorded (git's
 * "racily clean" entries). A whole-second ctime is taken for a file system that keeps seconds.
 * A file system whose clock runs behind this machine's by more than the granule defeats this.
 */
export function standsForListing(ctimeMs: number, startedAtMs: number): boolean {
  const granule = ctimeMs % 1000 === 0 ? COARSE_GRANULE_MS : FINE_GRANULE_MS;
  return startedAtMs - ctimeMs >= granule;
}

/** The unit's file, its write-once folder (if any) and `companions`, stamped. */
async function stampFiles(unit: SourceUnit, companionFiles: readonly string[]): Promise<UnitStamps> {
  // Synchronous stats: a re-import that changes nothing is little but these, and each `fs/promises`
  // stat is a round trip of the thread pool (~25 µs of waiting for a ~3 µs call; a Cline store's
  // re-import 230 → 170 ms). Units are stamped ahead, so their folder stats still overlap.
  const main = statSync(unit.file);
  const folder = await stampFolder(unit);
  return {
    main: { size: main.size, mtimeMs: main.mtimeMs },
    companions: present(companionFiles, companionFiles.map(statIfPresent)),
    ...(folder === undefined ? {} : { folder }),
  };
}

/** The stamps of the companions present and not empty. */
function present(files: readonly string[], stats: readonly (Stats | undefined)[]): CompanionStamp[] {
  const companions: CompanionStamp[] = [];
  files.forEach((companion, i) => {
    const s = stats[i];
    // An empty companion adds nothing to the unit, as an absent one: SQLite makes an empty
    // `-wal` beside a database on the first read, which is no change of the database.
    if (s !== undefined && s.size > 0) companions.push({ path: companion, size: s.size, mtimeMs: s.mtimeMs });
  });
  return companions;
}

/** The companions a ledger entry kept by folder records (`folderStamps`): those outside the folder. */
export function outsideFolder(unit: SourceUnit, stamps: UnitStamps): readonly CompanionStamp[] {
  if (unit.writeOnceFolder === undefined) return stamps.companions;
  const kept = new Set(foldedCompanions(unit.companions, unit.writeOnceFolder));
  return stamps.companions.filter((c) => kept.has(c.path));
}

/** The companions a by-folder stamp keeps: those outside the folder. */
function foldedCompanions(companions: readonly string[], folder: string): string[] {
  return companions.filter((c) => !isIn(c, folder));
}

/**
 * Whether `file` lies directly in `folder` (`path.dirname(file) === folder` for the normalized
 * paths discovery gives, without a new string a file: a conversation has thousands).
 */
function isIn(file: string, folder: string): boolean {
  return (
    file.length > folder.length + 1 &&
    file.startsWith(folder) &&
    file[folder.length] === path.sep &&
    !file.includes(path.sep, folder.length + 1)
  );
}

/**
 * The folder's files as the unit lists them (so one created since discovery is a change), and the
 * stat discovery took before listing it (mtime and ctime); without one, its mtime now.
 */
async function stampFolder(unit: SourceUnit): Promise<FolderStamp | undefined> {
  const folder = unit.writeOnceFolder;
  if (folder === undefined) return undefined;
  let listed = isIn(unit.file, folder) ? 1 : 0;
  for (const companion of unit.companions) if (isIn(companion, folder)) listed++;
  if (unit.folderStat !== undefined) {
    const { mtimeMs, ctimeMs } = unit.folderStat;
    return { path: folder, size: listed, mtimeMs, ctimeMs };
  }
  // Statted after the listing: a file created in between moves this stat but is not listed, so
  // this stat must never stand for the listing (no ctime).
  const s = await fsp.stat(folder);
  return { path: folder, size: listed, mtimeMs: s.mtimeMs };
}

function statIfPresent(file: string): Stats | undefined {
  // A companion deleted since discovery is simply absent now.
  return statSync(file, { throwIfNoEntry: false });
}

/**
 * How a unit compares with its ledger entry: `same` (size and mtime of every file equal — not
 * read at all), `touched` (same sizes, other mtimes: worth a hash before re-mapping) or `changed`.
 * An entry kept by folder is compared by folder (`FolderStamps`): another number of files is a
 * change, another mtime (a file replaced under its name) a touch; its files are not compared.
 */
export function compareStamps(
  stamps: UnitStamps | FolderStamps,
  entry: LedgerEntry | undefined,
): 'same' | 'touched' | 'changed' {
  if (entry === undefined) return 'changed';
  const byFolder = 'byFolder' in stamps;
  if ((entry.folder !== undefined) !== byFolder) return 'changed';
  if (stamps.companions.length !== entry.companions.length) return 'changed';
  let touched = false;
  if (byFolder) {
    const now = stamps.folder;
    if (now.path !== entry.folder!.path || now.size !== entry.folder!.size) return 'changed';
    if (now.mtimeMs !== entry.folder!.mtimeMs) touched = true;
  } else {
    if (stamps.main.size !== entry.size) return 'changed';
    if (stamps.main.mtimeMs !== entry.mtimeMs) touched = true;
  }
  for (let i = 0; i < stamps.companions.length; i++) {
    const now = stamps.companions[i]!;
    const then = entry.companions[i]!;
    if (now.path !== then.path || now.size !== then.size) return 'changed';
    if (now.mtimeMs !== then.mtimeMs) touched = true;
  }
  return touched ? 'touched' : 'same';
}

/** Past this many companions the ledger keeps one digest of the unit's digests, not each. */
const LISTED_DIGESTS = 8;

/**
 * The digest the ledger keeps: the file's bytes, then each companion's — for a unit of many
 * companions (an OpenHands conversation, a file per event) the SHA-1 of that list, so its ledger
 * entry stays small: a re-import that changes nothing reads the whole ledger.
 */
export function combineHashes(main: string, companions: readonly string[]): string {
  if (companions.length === 0) return main;
  const listed = [main, ...companions].join('+');
  return companions.length <= LISTED_DIGESTS ? listed : `sha1:${hashBytes(Buffer.from(listed))}`;
}

/** The digest of the unit's bytes; `stamps` must be full (`stampUnit`): every companion is read. */
export async function unitHash(unit: SourceUnit, stamps: UnitStamps): Promise<string> {
  // Read together, as the stamps are taken: a unit may have thousands of small companions.
  const [main, ...companions] = await Promise.all([
    hashFile(unit.file),
    ...stamps.companions.map((c) => hashFile(c.path)),
  ]);
  return combineHashes(main, companions);
}
