import path from 'node:path';
import { discoverFiles } from '../run/discover-files.js';
import type { SourceUnit } from '../run/harness-importer.js';

/**
 * Cursor's state databases (`state.vscdb`, any `*.vscdb` the peek recognises by its table; not
 * the `state.vscdb.backup` copies Cursor keeps beside it). A database's `-wal` is a companion: a
 * write may reach only the WAL until a checkpoint.
 */
export async function discoverCursor(root: string): Promise<SourceUnit[]> {
  const files = await discoverFiles(root, (name) => name.endsWith('.vscdb'));
  return files.map(({ file, siblings }) => {
    const wal = `${path.basename(file)}-wal`;
    return { file, companions: siblings.has(wal) ? [path.join(path.dirname(file), wal)] : [] };
  });
}
