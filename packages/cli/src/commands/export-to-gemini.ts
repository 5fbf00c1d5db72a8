import { homedir } from 'node:os';
import path from 'node:path';
import { renderGeminiChat, type ExportDocument } from '@strand/export';
import { writeExportFile, type HarnessExport } from './export-file.js';
import { geminiProjectFolder } from './gemini-project.js';
import { shellWord } from '../output/shell-word.js';

/**
 * Gemini CLI's folder: `<home>/.gemini` for `--home`, else `<GEMINI_CLI_HOME>/.gemini` when set
 * (Gemini CLI's own override of the home it keeps `.gemini` in), else `$HOME/.gemini`.
 */
export function geminiDir(home: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  if (home !== undefined) return path.join(path.resolve(home), '.gemini');
  const cliHome = env.GEMINI_CLI_HOME;
  if (cliHome !== undefined && cliHome !== '') return path.join(path.resolve(cliHome), '.gemini');
  return path.join(env.HOME ?? homedir(), '.gemini');
}

/**
 * Writes the document as a Gemini CLI chat under `tmp/<project>/chats/`, the project folder
 * named through Gemini CLI's registry as Gemini CLI names it, where `gemini --resume <id>` run in
 * the session's folder finds it: replaced only while it is still Strand's untouched export.
 */
export async function exportToGemini(document: ExportDocument, dir: string): Promise<HarnessExport> {
  const chat = renderGeminiChat(document);
  if (chat.text === '')
    throw new Error(`${document.header.id} has no conversation yet to continue in Gemini CLI`);
  const project = await geminiProjectFolder(dir, chat.cwd);
  const file = path.join(dir, 'tmp', project, 'chats', chat.fileName);
  await writeExportFile(file, chat.text, document.header.id, 'Gemini CLI');
  return {
    path: file,
    resumeId: chat.sessionId,
    command: `cd ${shellWord(chat.cwd)} && gemini --resume ${chat.sessionId}`,
    children: [],
    leftOut: chat.leftOut,
  };
}
