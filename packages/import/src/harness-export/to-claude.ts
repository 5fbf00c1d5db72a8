import path from 'node:path';
import { renderClaudeTranscript, type ExportDocument } from '@strand/export';
import { HarnessWriteError } from './errors.js';
import { needsWrite, writeFileWhole, type HarnessExport } from './export-file.js';
import { shellWord } from './shell-word.js';
import { othersLeftOut, NO_SUBAGENTS, type SubagentExports } from './subagents.js';

/**
 * Writes the document as a Claude Code transcript where `claude --resume` finds it (`dir`: the
 * `.claude` folder), its children as Claude Code's own sidechain files
 * (`<session>/subagents/agent-<id>.jsonl` and `.meta.json`): each file the same again if it is
 * still exactly Strand's last export (or absent), never one that Claude Code has continued or
 * that Strand did not write. Every file is checked before any is written, and the children are
 * written before the parent that links them.
 */
export async function exportToClaude(
  document: ExportDocument,
  dir: string,
  subagents: SubagentExports = NO_SUBAGENTS,
): Promise<HarnessExport> {
  const transcript = renderClaudeTranscript(document, subagents.children);
  // An empty transcript is no conversation Claude Code could resume.
  if (transcript.text === '')
    throw new HarnessWriteError(
      'not-continuable',
      `${document.header.id} has no conversation yet to continue in Claude Code`,
    );
  const project = path.join(dir, 'projects', transcript.projectFolder);
  const file = path.join(project, transcript.fileName);
  const children = transcript.sidechains.map((sidechain) => {
    const folder = path.join(project, ...sidechain.folder.split('/'));
    return {
      sidechain,
      file: path.join(folder, sidechain.fileName),
      meta: path.join(folder, sidechain.metaFileName),
    };
  });
  const stale = await Promise.all(
    children.map((child) =>
      needsWrite(child.file, child.sidechain.text, child.sidechain.origin, 'Claude Code'),
    ),
  );
  const parentStale = await needsWrite(file, transcript.text, document.header.id, 'Claude Code');
  for (const [i, child] of children.entries()) {
    if (!stale[i]) continue;
    // The meta file carries no marker: it is Strand's while its transcript is.
    await writeFileWhole(child.meta, child.sidechain.metaText);
    await writeFileWhole(child.file, child.sidechain.text);
  }
  if (parentStale) await writeFileWhole(file, transcript.text);
  return {
    path: file,
    resumeId: transcript.sessionId,
    command: `cd ${shellWord(transcript.cwd)} && claude --resume ${transcript.sessionId}`,
    children: children.map((child) => child.file),
    leftOut: [...transcript.leftOut, ...othersLeftOut(subagents)],
  };
}
