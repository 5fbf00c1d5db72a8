import path from 'node:path';
import { discoverFiles } from '../run/discover-files.js';
import type { SourceUnit } from '../run/harness-importer.js';
import { OPENCODE, type StoreFlavour } from './flavour.js';

/**
 * opencode's SQLite databases (`opencode.db`, `opencode-<channel>.db` for other release channels,
 * any `*.db` the peek recognises by its tables). Each database is one unit holding many sessions;
 * its `-wal` is a companion, so the ledger sees a write that only reached the WAL as a change (the
 * database file itself may keep its size and mtime until a checkpoint).
 */
export async function discoverOpencode(
  root: string,
  flavour: StoreFlavour = OPENCODE,
): Promise<SourceUnit[]> {
  const files = await discoverFiles(
    root,
    (name) => name.endsWith('.db'),
    (name) => flavour.notSessions.has(name),
  );
  return files.map(({ file, siblings }) => {
    const wal = `${path.basename(file)}-wal`;
    return { file, companions: siblings.has(wal) ? [path.join(path.dirname(file), wal)] : [] };
  });
}
