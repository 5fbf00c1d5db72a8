import path from 'node:path';
import { discoverFiles } from '../run/discover-files.js';
import type { SourceUnit } from '../run/harness-importer.js';

/**
 * Every `*.jsonl` under the projects folder: the chats (`<project>/chats/<sessionId>.jsonl`) and
 * the subagents' transcripts (`<project>/subagents/<sessionId>/agent-<id>.jsonl`), each subagent
 * with its `agent-<id>.meta.json` companion when one sits beside it (its type and description).
 * Recognised by content (`peekQwen`), so names may vary. A subagent's live stream
 * (`agent-<id>.jsonl.stream`) is a scratch copy of its text, not a transcript.
 */
export async function discoverQwen(root: string): Promise<SourceUnit[]> {
  const files = await discoverFiles(root, (name) => name.endsWith('.jsonl'));
  return files.map(({ file, siblings }) => {
    const meta = `${path.basename(file, '.jsonl')}.meta.json`;
    return { file, companions: siblings.has(meta) ? [path.join(path.dirname(file), meta)] : [] };
  });
}
