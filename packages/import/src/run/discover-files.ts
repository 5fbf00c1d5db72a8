import { promises as fsp } from 'node:fs';
import path from 'node:path';

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
  const out: DiscoveredFile[] = [];
  const walk = async (dir: string): Promise<void> => {
    let entries;
    try {
      entries = await fsp.readdir(dir, { withFileTypes: true });
    } catch (error) {
      // A folder that vanished or cannot be read is not part of the import; its files are not
      // reported because they were never seen.
      if (
        (error as NodeJS.ErrnoException).code === 'ENOENT' ||
        (error as NodeJS.ErrnoException).code === 'EACCES'
      )
        return;
      throw error;
    }
    const siblings = new Set(entries.filter((e) => e.isFile()).map((e) => e.name));
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!skipDir(entry.name)) await walk(full);
      } else if (entry.isFile() && accept(entry.name)) out.push({ file: full, siblings });
    }
  };
  await walk(root);
  out.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return out;
}
