import path from 'node:path';
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
// gemini-cli names a chat `session-<time>-<first 8 of sessionId>.json(l)`.
const SESSION_SUFFIX = /^session-.+-([^-.]{8})\.jsonl?$/;

/**
 * Chat files, whole-JSON (`.json`) and JSONL; recognised by content, so names may vary. Chats in
 * one folder whose names end with the same session prefix are each other's companions: whether a
 * file is a copy of another chat or a chat of its own (a nested agent's) depends on them, so a
 * change of one must make the others be looked at again.
 */
export async function discoverGemini(root: string): Promise<SourceUnit[]> {
  const files = await discoverFiles(root, isCandidate);
  return files.map(({ file, siblings }) => {
    const suffix = SESSION_SUFFIX.exec(path.basename(file))?.[1];
    const companions =
      suffix === undefined
        ? []
        : [...siblings]
            .filter((name) => name !== path.basename(file) && SESSION_SUFFIX.exec(name)?.[1] === suffix)
            .sort()
            .map((name) => path.join(path.dirname(file), name));
    return { file, companions };
  });
}

function isCandidate(name: string): boolean {
  return (
    (name.endsWith('.json') || name.endsWith('.jsonl')) && !NOT_CHATS.has(name) && !SECRET_LOOKING.test(name)
  );
}
