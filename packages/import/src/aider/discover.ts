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
  const files = await discoverFiles(
    root,
    (name) => name.endsWith('.chat.history.md'),
    (name) => SKIPPED_DIRS.has(name),
  );
  return files.map(({ file }) => ({ file, companions: [] }));
}
