import { discoverFiles } from '../run/discover-files.js';
import type { SourceUnit } from '../run/harness-importer.js';

/**
 * Session files (`<ts>_<uuid>.jsonl` in `--<cwd>--/` folders, pi 0.x); recognised by content (the
 * peek reads the header line), so names and folders may vary. A session is one file: no companions.
 */
export async function discoverPi(root: string): Promise<SourceUnit[]> {
  const files = await discoverFiles(root, (name) => name.endsWith('.jsonl'));
  return files.map(({ file }) => ({ file, companions: [] }));
}
