import path from 'node:path';
import { discoverFiles } from '../run/discover-files.js';
import type { SourceUnit } from '../run/harness-importer.js';

/** The files of one task folder (`tasks/<taskId>/`), as Cline and Roo Code name them. */
export const TASK_FILES = {
  api: 'api_conversation_history.json',
  ui: 'ui_messages.json',
  metadata: 'task_metadata.json',
  /** Roo Code ≥ 3.5x: the task's history item (title, parent task) beside its files. */
  historyItem: 'history_item.json',
  /** The SDK's sessions (CLI 3.x, `~/.cline/data/sessions/<id>/`): `<id>.messages.json`. */
  sdkMessagesSuffix: '.messages.json',
} as const;

const COMPANIONS = [TASK_FILES.ui, TASK_FILES.metadata, TASK_FILES.historyItem];
// Checkpoints are shadow git repositories (large, never transcripts); the others hold settings,
// caches and MCP servers.
const NOT_TASK_FOLDERS = new Set(['checkpoints', 'cache', 'settings', 'puppeteer', '.git', 'node_modules']);

/**
 * Every `api_conversation_history.json` under the storage folder (and every SDK session's
 * `<id>.messages.json`, with its manifest as companion), each with the task files beside
 * it as companions: the UI messages (usage, cost, times, the task text), the task metadata
 * (models used) and Roo's history item (title, parent task). The unit is the API history because
 * it holds the conversation itself; a change of a companion alone (usage written after the
 * response) is a change of the unit. Recognised by content (`peekTask`), so the folder name may
 * vary.
 */
export async function discoverTasks(root: string): Promise<SourceUnit[]> {
  const files = await discoverFiles(
    root,
    (name) => name === TASK_FILES.api || name.endsWith(TASK_FILES.sdkMessagesSuffix),
    (name) => NOT_TASK_FOLDERS.has(name),
  );
  return files.map(({ file, siblings }) => {
    const name = path.basename(file);
    // An SDK session's manifest (`<id>.json`: title, cwd, model, totals) sits beside its messages;
    // a subagent's messages (`<agentId>.messages.json` in its root session's folder) have none.
    const companions =
      name === TASK_FILES.api
        ? COMPANIONS.filter((c) => siblings.has(c))
        : [`${name.slice(0, -TASK_FILES.sdkMessagesSuffix.length)}.json`].filter((c) => siblings.has(c));
    return { file, companions: companions.map((c) => path.join(path.dirname(file), c)) };
  });
}
