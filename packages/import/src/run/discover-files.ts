import { readdir, type Dirent } from 'node:fs';
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
    const entries = await listFolder(dir);
    if (!Array.isArray(entries)) {
      // A folder that vanished or cannot be read is not part of the import; its files are not
      // reported because they were never seen.
      const code = entries.code;
      if (code === 'ENOENT' || code === 'EACCES') return { files: [] };
      return { error: entries };
    }
    const siblings = new Set<string>();
    const files: DiscoveredFile[] = [];
    const folders: string[] = [];
    for (const entry of entries) {
      if (entry.isDirectory()) {
        if (!skipDir(entry.name)) folders.push(path.join(dir, entry.name));
      } else if (entry.isFile()) {
        siblings.add(entry.name);
        if (accept(entry.name)) files.push({ file: path.join(dir, entry.name), siblings });
      }
    }
    // 16 a level: nested walks multiply their windows, and 16 already keeps the thread pool busy.
    // A folder of files only (a task folder) starts no walk below it.
    if (folders.length > 0)
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

/**
 * A folder's entries, or why it could not be listed. The callback `readdir`: the promise form costs
 * more a call, and a Cline store is thousands of small folders.
 */
function listFolder(dir: string): Promise<Dirent[] | NodeJS.ErrnoException> {
  return new Promise((resolve) => {
    readdir(dir, { withFileTypes: true }, (error, entries) => resolve(error ?? entries));
  });
}
