import { mkdir, readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { renderClaudeTranscript, strandExportOf, type ExportDocument } from '@strand/export';
import { writeWhole } from './write-whole.js';
import { shellWord } from '../output/shell-word.js';

/** What `strand export --to claude-code` wrote, as `--json` prints it. */
export interface HarnessExport {
  readonly path: string;
  readonly resumeId: string;
  readonly command: string;
  readonly children: readonly string[];
  /** What the transcript could not hold, one line per kind (stderr). */
  readonly leftOut: readonly string[];
}

/**
 * Claude Code's folder: `<home>/.claude` for `--home`, else `CLAUDE_CONFIG_DIR` when set (Claude
 * Code's own override), else `$HOME/.claude`.
 */
export function claudeDir(home: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  if (home !== undefined) return path.join(path.resolve(home), '.claude');
  const configDir = env.CLAUDE_CONFIG_DIR;
  if (configDir !== undefined && configDir !== '') return path.resolve(configDir);
  return path.join(env.HOME ?? homedir(), '.claude');
}

/**
 * Writes the document as a Claude Code transcript where `claude --resume` finds it: the same
 * file again if it is still exactly Strand's last export (or absent), never one that Claude Code
 * has continued or that Strand did not write.
 */
export async function exportToClaude(document: ExportDocument, dir: string): Promise<HarnessExport> {
  const transcript = renderClaudeTranscript(document);
  // An empty transcript is no conversation Claude Code could resume.
  if (transcript.text === '')
    throw new Error(`${document.header.id} has no conversation yet to continue in Claude Code`);
  const folder = path.join(dir, 'projects', transcript.projectFolder);
  const file = path.join(folder, transcript.fileName);
  const existing = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (
    existing !== undefined &&
    existing !== transcript.text &&
    strandExportOf(existing)?.origin !== document.header.id
  )
    throw new ExportRefusedError(
      `${file} is not Strand's last export of ${document.header.id} (Claude Code may have continued it): not overwritten`,
    );
  if (existing !== transcript.text) {
    await mkdir(folder, { recursive: true });
    await writeWhole(file, transcript.text);
  }
  return {
    path: file,
    resumeId: transcript.sessionId,
    command: `cd ${shellWord(transcript.cwd)} && claude --resume ${transcript.sessionId}`,
    children: [],
    leftOut: transcript.leftOut,
  };
}

export class ExportRefusedError extends Error {
  override readonly name = 'ExportRefusedError';
  readonly code = 'EXPORT_TARGET_NOT_OURS';
}
