import { discoverFiles } from '../run/discover-files.js';
import type { SourceUnit } from '../run/harness-importer.js';

// Files beside the chats that are not transcripts. `logs.json` is prompt history; the others are
// settings and — never to be opened — credentials.
const NOT_CHATS = new Set([
  'logs.json',
  'projects.json',
  'settings.json',
  'trustedFolders.json',
  'installation_id.json',
]);
const SECRET_LOOKING = /oauth|cred|token|account|secret|auth/i;

/** Chat files, whole-JSON (`.json`) and JSONL; recognised by content, so names may vary. */
export async function discoverGemini(root: string): Promise<SourceUnit[]> {
  const files = await discoverFiles(
    root,
    (name) =>
      (name.endsWith('.json') || name.endsWith('.jsonl')) &&
      !NOT_CHATS.has(name) &&
      !SECRET_LOOKING.test(name),
  );
  return files.map(({ file }) => ({ file, companions: [] }));
}
