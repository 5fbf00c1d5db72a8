import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { ahead } from '../source/read-ahead.js';

export interface DiscoveredFile {
  readonly file: string;
  /** Names of the other entries in the same folder (for companion lookup without a stat each). */
  readonly siblings: ReadonlySet<string>;
}

/**
 * Walks `root` recursively and returns the files `accept` keeps, sorted by path. Symlinks are not
 * followed (a link loop or a link out of the tree must not widen the import), and folders whose
 * name `skipDir` refuses are not entered.
 */
export async function discoverFiles(
  root: string,
  accept: (name: string) => boolean,
  skipDir: (name: string) => boolean = () => false,
): Promise<DiscoveredFile[]> {
  // Folders are listed side by side (a window at a time, `ahead`): a store of thousands of task
  // folders (Cline's) is re-imported unchanged in little more than this walk, and one listing
  // after another waits for the thread pool each time.
  const walk = async (dir: string): Promise<{ files: DiscoveredFile[] } | { error: unknown }> => {
    let entries;
    try {
      entries = await fsp.readdir(dir, { withFileTypes: true });
    } catch (error) {
      // A folder that vanished or cannot be read is not part of the import; its files are not
      // reported because they were never seen.
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'EACCES') return { files: [] };
      return { error };
    }
    const siblings = new Set(entries.filter((e) => e.isFile()).map((e) => e.name));
    const files: DiscoveredFile[] = [];
    const folders: string[] = [];
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!skipDir(entry.name)) folders.push(full);
      } else if (entry.isFile() && accept(entry.name)) files.push({ file: full, siblings });
    }
    // 16 a level: nested walks multiply their windows, and 16 already keeps the thread pool busy.
    for await (const below of ahead(folders, walk, 16)) {
      if ('error' in below) return below;
      files.push(...below.files);
    }
    return { files };
  };
  const found = await walk(root);
  if ('error' in found) throw found.error;
  const out = found.files;
  out.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return out;
}
