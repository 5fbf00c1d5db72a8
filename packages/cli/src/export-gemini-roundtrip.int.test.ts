import path from 'node:path';
import { describe, it } from 'vitest';
import { renderGeminiChat } from '@strand/export';
import { assertRoundTrip, place } from './testing/export-roundtrip.js';

/**
 * The Gemini CLI export read back by Strand's own Gemini importer: the prompts, replies, tool
 * calls and results come back in order (the cwd from the project's `.project_root`, as Gemini CLI
 * keeps it).
 */
describe('a Gemini CLI export read back by the Gemini importer', () => {
  it('gives back the prompts, replies, tool calls and results in order', async () => {
    await assertRoundTrip({
      harness: 'gemini',
      write(document, root) {
        const chat = renderGeminiChat(document);
        place(root, ['tmp', 'shop', '.project_root'], chat.cwd);
        place(root, ['tmp', 'shop', 'chats', chat.fileName], chat.text);
        return { sourceDir: path.join(root, 'tmp'), importedId: `gemini-${chat.sessionId}` };
      },
    });
  });
});
