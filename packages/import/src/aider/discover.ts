import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { discoverFiles } from '../run/discover-files.js';
import type { SourceUnit } from '../run/harness-importer.js';

// Folders of a project tree that never hold a project's own history and can be huge.
const SKIPPED_DIRS = new Set(['node_modules', '.git']);

/**
 * Aider's chat histories under a tree of projects: `.aider.chat.history.md` at each git root, and
 * any `*.chat.history.md` (`--chat-history-file` moves and renames it; people keep the suffix, e.g.
 * `.aider-mario.chat.history.md`). Recognised by content in `peek`: the first line that is not
 * blank opens a session (`# aider chat started at …`).
 */
export async function discoverAider(root: string): Promise<SourceUnit[]> {
  const files = await discoverFiles(root, isHistoryName, (name) => SKIPPED_DIRS.has(name));
  return files.map(({ file }) => ({ file, companions: [] }));
}

const isHistoryName = (name: string): boolean => name.endsWith('.chat.history.md');

/**
 * The unit of one changed file under `root`, as `discoverAider` would find it: a history not
 * inside `node_modules` or `.git`, and not reached through a symlink below `root`. Live ingest
 * asks this on every change in a watched tree of projects; only history names cost a look at disk.
 */
export async function aiderUnitOf(root: string, file: string): Promise<SourceUnit | undefined> {
  if (!isHistoryName(path.basename(file))) return undefined;
  const below = path.relative(root, file);
  if (below.startsWith('..') || path.isAbsolute(below)) return undefined;
  const parts = below.split(path.sep);
  if (parts.slice(0, -1).some((part) => SKIPPED_DIRS.has(part))) return undefined;
  let at = root;
  for (const part of parts) {
    at = path.join(at, part);
    const stat = await fsp.lstat(at).catch(() => undefined);
    if (stat === undefined || stat.isSymbolicLink()) return undefined;
  }
  return { file, companions: [] };
}
