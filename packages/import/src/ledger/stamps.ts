import { promises as fsp } from 'node:fs';
import { hashFile } from '../source/file-hash.js';
import type { SourceUnit } from '../run/harness-importer.js';
import type { CompanionStamp, FileStamp, LedgerEntry } from './ledger.js';

export interface UnitStamps {
  readonly main: FileStamp;
  readonly companions: readonly CompanionStamp[];
}

export async function stampUnit(unit: SourceUnit): Promise<UnitStamps> {
  // Stat the companions together, not one after another: a conversation kept as a file per event
  // (OpenHands) has thousands, and a re-import that changes nothing is little but these stats.
  const [main, ...companionStats] = await Promise.all([
    fsp.stat(unit.file),
    ...unit.companions.map((companion) =>
      fsp.stat(companion).catch((error: NodeJS.ErrnoException) => {
        // A companion deleted since discovery is simply absent now.
        if (error.code === 'ENOENT') return undefined;
        throw error;
      }),
    ),
  ]);
  const companions: CompanionStamp[] = [];
  unit.companions.forEach((companion, i) => {
    const s = companionStats[i];
    // An empty companion adds nothing to the unit, as an absent one: SQLite makes an empty
    // `-wal` beside a database on the first read, which is no change of the database.
    if (s !== undefined && s.size > 0) companions.push({ path: companion, size: s.size, mtimeMs: s.mtimeMs });
  });
  return { main: { size: main.size, mtimeMs: main.mtimeMs }, companions };
}

/**
 * How a unit compares with its ledger entry: `same` (size and mtime of every file equal — not
 * read at all), `touched` (same sizes, other mtimes: worth a hash before re-mapping) or `changed`.
 */
export function compareStamps(
  stamps: UnitStamps,
  entry: LedgerEntry | undefined,
): 'same' | 'touched' | 'changed' {
  if (entry === undefined) return 'changed';
  if (stamps.main.size !== entry.size || stamps.companions.length !== entry.companions.length)
    return 'changed';
  let touched = stamps.main.mtimeMs !== entry.mtimeMs;
  for (let i = 0; i < stamps.companions.length; i++) {
    const now = stamps.companions[i]!;
    const then = entry.companions[i]!;
    if (now.path !== then.path || now.size !== then.size) return 'changed';
    if (now.mtimeMs !== then.mtimeMs) touched = true;
  }
  return touched ? 'touched' : 'same';
}

/** The digest the ledger keeps: the file's bytes, then each companion's. */
export function combineHashes(main: string, companions: readonly string[]): string {
  return companions.length === 0 ? main : [main, ...companions].join('+');
}

export async function unitHash(unit: SourceUnit, stamps: UnitStamps): Promise<string> {
  // Read together, as the stamps are taken: a unit may have thousands of small companions.
  const [main, ...companions] = await Promise.all([
    hashFile(unit.file),
    ...stamps.companions.map((c) => hashFile(c.path)),
  ]);
  return combineHashes(main, companions);
}
