import path from 'node:path';
import { discoverFiles } from '../run/discover-files.js';
import type { SourceUnit } from '../run/harness-importer.js';

/**
 * goose's session store (`sessions.db`, any `*.db` the peek recognises by its tables) and its
 * legacy session files (`*.jsonl`, written by goose before it had the database). A database's `-wal` is a companion: goose
 * opens it in WAL mode, so a write may reach only the WAL until a checkpoint.
 */
export async function discoverGoose(root: string): Promise<SourceUnit[]> {
  const files = await discoverFiles(root, (name) => name.endsWith('.db') || name.endsWith('.jsonl'));
  return files.map(({ file, siblings }) => {
    const wal = `${path.basename(file)}-wal`;
    return {
      file,
      companions: file.endsWith('.db') && siblings.has(wal) ? [path.join(path.dirname(file), wal)] : [],
    };
  });
}
