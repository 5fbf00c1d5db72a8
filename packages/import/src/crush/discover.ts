import path from 'node:path';
import { discoverFiles } from '../run/discover-files.js';
import type { SourceUnit } from '../run/harness-importer.js';

// Folders of a project tree that never hold crush's data and can be huge.
const SKIPPED_DIRS = new Set(['node_modules', '.git']);

/**
 * crush's databases under a project, or a tree of projects: `<project>/.crush/crush.db` (crush's
 * default `options.data_directory`), opencode-go's `<project>/.opencode/opencode.db`, and any
 * `*.db` elsewhere (the data directory is configurable): the peek recognises them by their tables.
 * Each database is one unit holding many sessions; its `-wal` is a companion, so a write that only
 * reached the WAL is seen as a change (the database file may keep its size and mtime until a
 * checkpoint).
 */
export async function discoverCrush(root: string): Promise<SourceUnit[]> {
  const files = await discoverFiles(
    root,
    (name) => name.endsWith('.db'),
    (name) => SKIPPED_DIRS.has(name),
  );
  return files.map(({ file, siblings }) => {
    const wal = `${path.basename(file)}-wal`;
    return { file, companions: siblings.has(wal) ? [path.join(path.dirname(file), wal)] : [] };
  });
}
