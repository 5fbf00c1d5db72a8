import type { Ledger, FolderStamp, LedgerEntry } from '../ledger/ledger.js';
import { outsideFolder, standsForListing, type FolderStamps, type UnitStamps } from '../ledger/stamps.js';
import type { HarnessImporter, RecalledFolder, SourceUnit } from './harness-importer.js';

/**
 * The companion stamps a ledger entry records: every file's, or — where the mapping read the
 * unit's write-once folder whole (`byFolder`) — the folder's stamp and the few files beside it.
 * A folder with a file cut mid-write keeps every file's stamp, so its completion is a change.
 */
export function recorded(
  unit: SourceUnit,
  stamps: UnitStamps,
  keepByFolder: boolean,
  startedAt: number,
): Pick<LedgerEntry, 'companions' | 'folder'> {
  if (!keepByFolder || stamps.folder === undefined) return { companions: stamps.companions };
  return { companions: outsideFolder(unit, stamps), folder: folderRecord(stamps.folder, startedAt) };
}

/** A folder's stamp as the ledger keeps it: its ctime only where the stat may stand for the listing. */
function folderRecord(stamp: FolderStamp, startedAt: number): FolderStamp {
  const { ctimeMs, ...rest } = stamp;
  return ctimeMs !== undefined && standsForListing(ctimeMs, startedAt) ? stamp : rest;
}

/**
 * An unchanged entry kept by folder, its record brought up to the folder's stat now where that may
 * stand for the listing and the record's does not (a folder last changed just before the run that
 * recorded it, or a ledger from before ctimes were kept): listed and found the same, it is
 * recorded so, and the next run need not list it.
 */
export function settle(
  known: LedgerEntry,
  taken: UnitStamps | FolderStamps | undefined,
  startedAt: number,
): LedgerEntry {
  if (known.folder === undefined || taken === undefined || !('byFolder' in taken)) return known;
  const now = folderRecord(taken.folder, startedAt);
  if (now.ctimeMs === undefined || now.ctimeMs === known.folder.ctimeMs) return known;
  return { ...known, folder: now };
}

/**
 * The ledger's records of `importer`'s write-once folders under `root` whose stat may stand for
 * their listing (`FolderStamp.ctimeMs`), by folder: discovery need not list those still so.
 */
export function recalledFolders(
  ledger: Ledger,
  root: string,
  importer: HarnessImporter,
): Map<string, RecalledFolder> {
  const recalled = new Map<string, RecalledFolder>();
  for (const [file, entry] of ledger.under(root, importer.harness)) {
    const folder = entry.folder;
    if (folder?.ctimeMs !== undefined)
      recalled.set(folder.path, { file, mtimeMs: folder.mtimeMs, ctimeMs: folder.ctimeMs });
  }
  return recalled;
}
