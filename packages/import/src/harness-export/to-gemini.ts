import path from 'node:path';
import { renderGeminiChat, type ExportDocument } from '@strand/export';
import { HarnessWriteError } from './errors.js';
import { writeExportFile, type HarnessExport } from './export-file.js';
import { geminiProjectFolder } from './gemini-project.js';
import { shellWord } from './shell-word.js';
import { NO_SUBAGENTS, subagentsLeftOut, type SubagentExports } from './subagents.js';

/**
 * Writes the document as a Gemini CLI chat under `tmp/<project>/chats/` (`dir`: the `.gemini`
 * folder), the project folder named through Gemini CLI's registry as Gemini CLI names it, where
 * `gemini --resume <id>` run in the session's folder finds it: replaced only while it is still
 * Strand's untouched export.
 */
export async function exportToGemini(
  document: ExportDocument,
  dir: string,
  subagents: SubagentExports = NO_SUBAGENTS,
): Promise<HarnessExport> {
  const chat = renderGeminiChat(document);
  if (chat.text === '')
    throw new HarnessWriteError(
      'not-continuable',
      `${document.header.id} has no conversation yet to continue in Gemini CLI`,
    );
  const project = await geminiProjectFolder(dir, chat.cwd).catch((error: unknown) => {
    if (error instanceof HarnessWriteError) throw error;
    throw new HarnessWriteError(
      'write-failed',
      `could not claim the project folder of ${chat.cwd} in ${dir}: ${(error as Error).message}`,
      { cause: error },
    );
  });
  const file = path.join(dir, 'tmp', project, 'chats', chat.fileName);
  await writeExportFile(file, chat.text, document.header.id, 'Gemini CLI');
  return {
    path: file,
    resumeId: chat.sessionId,
    command: `cd ${shellWord(chat.cwd)} && gemini --resume ${chat.sessionId}`,
    children: [],
    leftOut: [...chat.leftOut, ...subagentsLeftOut(subagents, 'Gemini CLI')],
  };
}
