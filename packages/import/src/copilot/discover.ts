import path from 'node:path';
import { discoverFiles } from '../run/discover-files.js';
import type { SourceUnit } from '../run/harness-importer.js';

/** The folder Copilot CLI keeps beside each session's events: its title and working folder. */
export const WORKSPACE_FILE = 'workspace.yaml';

/**
 * Every `*.jsonl` under the session-state folder: a session's `<id>/events.jsonl` (1.0 and later,
 * with its `workspace.yaml` companion: the name the session list shows) and the flat
 * `<id>.jsonl` older versions wrote. Recognised by content (`peekCopilot`), so names may vary.
 * Copilot CLI's own lock folders (`.session-operation-locks`) hold no transcripts.
 */
export async function discoverCopilot(root: string): Promise<SourceUnit[]> {
  const files = await discoverFiles(
    root,
    (name) => name.endsWith('.jsonl'),
    (name) => name.startsWith('.'),
  );
  return files.map(({ file, siblings }) => ({
    file,
    companions:
      path.basename(file) === 'events.jsonl' && siblings.has(WORKSPACE_FILE)
        ? [path.join(path.dirname(file), WORKSPACE_FILE)]
        : [],
  }));
}
