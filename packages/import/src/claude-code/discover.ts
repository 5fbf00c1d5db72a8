import path from 'node:path';
import { discoverFiles } from '../run/discover-files.js';
import type { SourceUnit } from '../run/harness-importer.js';

/**
 * Every `*.jsonl` under the projects folder, with its `.meta.json` companion when one sits beside
 * it (Claude Code 2.1 subagents). `history.jsonl` is prompt history, `tool-results/` holds spilled
 * tool output and `memory/` project notes: none are transcripts, so they are not even opened.
 */
export async function discoverClaude(root: string): Promise<SourceUnit[]> {
  const files = await discoverFiles(
    root,
    (name) => name.endsWith('.jsonl') && name !== 'history.jsonl',
    (dir) => dir === 'tool-results' || dir === 'memory',
  );
  return files.map(({ file, siblings }) => {
    const meta = `${path.basename(file, '.jsonl')}.meta.json`;
    return { file, companions: siblings.has(meta) ? [path.join(path.dirname(file), meta)] : [] };
  });
}
