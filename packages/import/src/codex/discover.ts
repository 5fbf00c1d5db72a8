import { discoverFiles } from '../run/discover-files.js';
import type { SourceUnit } from '../run/harness-importer.js';

/** Rollouts, plain and zstd-compressed. `history.jsonl` is prompt history, not a transcript. */
export async function discoverCodex(root: string): Promise<SourceUnit[]> {
  const files = await discoverFiles(
    root,
    (name) => (name.endsWith('.jsonl') || name.endsWith('.jsonl.zst')) && name !== 'history.jsonl',
  );
  return files.map(({ file }) => ({ file, companions: [] }));
}

export const isCompressed = (file: string): boolean => file.endsWith('.zst');
