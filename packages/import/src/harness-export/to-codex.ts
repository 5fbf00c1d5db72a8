import path from 'node:path';
import { renderCodexRollout, type ExportDocument } from '@strand/export';
import { HarnessWriteError } from './errors.js';
import { writeExportFile, type HarnessExport } from './export-file.js';
import { shellWord } from './shell-word.js';
import { NO_SUBAGENTS, subagentsLeftOut, type SubagentExports } from './subagents.js';

/**
 * Writes the document as a Codex rollout under `sessions/YYYY/MM/DD/` (`dir`: the `.codex`
 * folder) where `codex exec resume` finds it by its thread id: replaced only while it is still
 * Strand's untouched export. Codex's state database is left to Codex, which reads a rollout it
 * does not list yet when asked for it by id (packages/export/README.md).
 */
export async function exportToCodex(
  document: ExportDocument,
  dir: string,
  subagents: SubagentExports = NO_SUBAGENTS,
): Promise<HarnessExport> {
  const rollout = renderCodexRollout(document);
  // An empty transcript is no conversation Codex could resume.
  if (rollout.text === '')
    throw new HarnessWriteError(
      'not-continuable',
      `${document.header.id} has no conversation yet to continue in Codex`,
    );
  const file = path.join(dir, 'sessions', rollout.dayFolder, rollout.fileName);
  await writeExportFile(file, rollout.text, document.header.id, 'Codex');
  return {
    path: file,
    resumeId: rollout.threadId,
    command: `cd ${shellWord(rollout.cwd)} && codex resume ${rollout.threadId}`,
    children: [],
    leftOut: [...rollout.leftOut, ...subagentsLeftOut(subagents, 'Codex')],
  };
}
