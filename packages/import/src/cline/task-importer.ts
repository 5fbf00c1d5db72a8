import path from 'node:path';
import type { HarnessImporter } from '../run/harness-importer.js';
import { discoverTasks } from './discover.js';
import { mapTask } from './map-task.js';
import { peekTask, type TaskHarness } from './peek.js';

/**
 * VS Code's per-user globalStorage folder of an extension, per OS (VS Code itself; Cursor,
 * Windsurf and VSCodium keep the same layout under their own product folder, to be named).
 */
export function vscodeGlobalStorage(home: string, extensionId: string, platform = process.platform): string {
  const user =
    platform === 'darwin'
      ? path.join(home, 'Library', 'Application Support', 'Code', 'User')
      : platform === 'win32'
        ? path.join(home, 'AppData', 'Roaming', 'Code', 'User')
        : path.join(home, '.config', 'Code', 'User');
  return path.join(user, 'globalStorage', extensionId);
}

/** An importer of task folders (`tasks/<taskId>/api_conversation_history.json` and companions). */
export function taskFolderImporter(harness: TaskHarness, extensionId: string): HarnessImporter {
  return {
    harness,
    defaultDir: (home) => vscodeGlobalStorage(home, extensionId),
    discover: discoverTasks,
    peek: (unit) => peekTask(harness, unit),
    map: (unit, peek) => mapTask(harness, unit, peek),
    // Whole-JSON files rewritten on every save: mapped whole on every change.
    incremental: () => Promise.resolve(undefined),
    // The usage of a response may reach `ui_messages.json` after the history was saved.
    companionChangesUnit: true,
  };
}
