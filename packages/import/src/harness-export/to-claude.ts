import path from 'node:path';
import { renderClaudeTranscript, type ExportDocument } from '@strand/export';
import { HarnessWriteError } from './errors.js';
import { writeExportFile, type HarnessExport } from './export-file.js';
import { shellWord } from './shell-word.js';

/**
 * Writes the document as a Claude Code transcript where `claude --resume` finds it (`dir`: the
 * `.claude` folder): the same file again if it is still exactly Strand's last export (or absent),
 * never one that Claude Code has continued or that Strand did not write.
 */
export async function exportToClaude(document: ExportDocument, dir: string): Promise<HarnessExport> {
  const transcript = renderClaudeTranscript(document);
  // An empty transcript is no conversation Claude Code could resume.
  if (transcript.text === '')
    throw new HarnessWriteError(
      'not-continuable',
      `${document.header.id} has no conversation yet to continue in Claude Code`,
    );
  const file = path.join(dir, 'projects', transcript.projectFolder, transcript.fileName);
  await writeExportFile(file, transcript.text, document.header.id, 'Claude Code');
  return {
    path: file,
    resumeId: transcript.sessionId,
    command: `cd ${shellWord(transcript.cwd)} && claude --resume ${transcript.sessionId}`,
    children: [],
    leftOut: transcript.leftOut,
  };
}
