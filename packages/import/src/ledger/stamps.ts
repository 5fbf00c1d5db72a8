import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { hashBytes, hashFile } from '../source/file-hash.js';
import type { SourceUnit } from '../run/harness-importer.js';
import type { CompanionStamp, FileStamp, LedgerEntry } from './ledger.js';

export interface UnitStamps {
  readonly main: FileStamp;
  /**
   * Every companion, one stamp each — or, when `byFolder`, only those outside the unit's
   * write-once folder, and the folder's newest file.
   */
  readonly companions: readonly CompanionStamp[];
  /** The unit's `writeOnceFolder` as a whole: its files listed (as `size`) and its mtime. */
  readonly folder?: CompanionStamp;
  /** Taken by folder (`folderStamps`): the write-once folder's older files were not looked at. */
  readonly byFolder?: true;
}

/** One stamp of every file of the unit (and of its write-once folder as a whole, if it has one). */
export function stampUnit(unit: SourceUnit): Promise<UnitStamps> {
  return stampFiles(unit, unit.companions);
}

/**
 * The stamps a ledger entry kept by folder is compared with: the unit's file, its write-once
 * folder as a whole, the folder's newest file (its name carries the highest event number), and
 * the companions outside the folder — a few stats for a conversation of thousands of event files.
 */
export async function folderStamps(unit: SourceUnit): Promise<UnitStamps> {
  const { writeOnceFolder } = unit;
  if (writeOnceFolder === undefined) return stampUnit(unit);
  return { ...(await stampFiles(unit, foldedCompanions(unit.companions, writeOnceFolder))), byFolder: true };
}

/** The unit's file, its write-once folder (if any) and `companions`, stamped. */
async function stampFiles(unit: SourceUnit, companionFiles: readonly string[]): Promise<UnitStamps> {
  // Stat the companions together, not one after another: a unit may have many small companions,
  // and a re-import that changes nothing is little but these stats.
  const [main, folder, ...companionStats] = await Promise.all([
    fsp.stat(unit.file),
    stampFolder(unit),
    ...companionFiles.map(statIfPresent),
  ]);
  const companions: CompanionStamp[] = [];
  companionFiles.forEach((companion, i) => {
    const s = companionStats[i];
    // An empty companion adds nothing to the unit, as an absent one: SQLite makes an empty
    // `-wal` beside a database on the first read, which is no change of the database.
    if (s !== undefined && s.size > 0) companions.push({ path: companion, size: s.size, mtimeMs: s.mtimeMs });
  });
  return {
    main: { size: main.size, mtimeMs: main.mtimeMs },
    companions,
    ...(folder === undefined ? {} : { folder }),
  };
}

/** Full stamps reduced to what a ledger entry kept by folder records (`folderStamps`' shape). */
export function byFolder(unit: SourceUnit, stamps: UnitStamps): UnitStamps {
  if (unit.writeOnceFolder === undefined || stamps.folder === undefined) return stamps;
  const kept = new Set(foldedCompanions(unit.companions, unit.writeOnceFolder));
  return { ...stamps, companions: stamps.companions.filter((c) => kept.has(c.path)), byFolder: true };
}

/** The companions a by-folder stamp keeps: those outside the folder, and the folder's last one. */
function foldedCompanions(companions: readonly string[], folder: string): string[] {
  const inside = (file: string): boolean => path.dirname(file) === folder;
  const newest = companions.findLast(inside);
  return companions.filter((c) => !inside(c) || c === newest);
}

/** The folder's files as the unit lists them (so one created since discovery is a change), its mtime. */
async function stampFolder(unit: SourceUnit): Promise<CompanionStamp | undefined> {
  const folder = unit.writeOnceFolder;
  if (folder === undefined) return undefined;
  const listed = [unit.file, ...unit.companions].filter((f) => path.dirname(f) === folder).length;
  const s = await fsp.stat(folder);
  return { path: folder, size: listed, mtimeMs: s.mtimeMs };
}

function statIfPresent(file: string) {
  return fsp.stat(file).catch((error: NodeJS.ErrnoException) => {
    // A companion deleted since discovery is simply absent now.
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
}

/**
 * How a unit compares with its ledger entry: `same` (size and mtime of every file equal — not
 * read at all), `touched` (same sizes, other mtimes: worth a hash before re-mapping) or `changed`.
 * An entry kept by folder compares the folder as one stamp: another number of files is a change,
 * another mtime (a file replaced under its name) a touch.
 */
export function compareStamps(
  stamps: UnitStamps,
  entry: LedgerEntry | undefined,
): 'same' | 'touched' | 'changed' {
  if (entry === undefined) return 'changed';
  if ((entry.folder !== undefined) !== (stamps.byFolder === true)) return 'changed';
  if (stamps.main.size !== entry.size || stamps.companions.length !== entry.companions.length)
    return 'changed';
  let touched = stamps.main.mtimeMs !== entry.mtimeMs;
  if (entry.folder !== undefined) {
    const now = stamps.folder;
    if (now === undefined || now.path !== entry.folder.path || now.size !== entry.folder.size)
      return 'changed';
    if (now.mtimeMs !== entry.folder.mtimeMs) touched = true;
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
