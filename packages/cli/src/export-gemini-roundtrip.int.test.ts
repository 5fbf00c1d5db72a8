import path from 'node:path';
import { describe, it } from 'vitest';
import { renderGeminiChat } from '@strand/export';
import { assertRoundTrip, place, resultText } from './testing/export-roundtrip.js';

/**
 * The Gemini CLI export read back by Strand's own Gemini importer: the prompts (their images as
 * images, byte for byte), replies, tool calls and results (an image in one named in its text) come
 * back in order (the cwd from the project's `.project_root`, as Gemini CLI
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
      // The writer puts a result's text in its functionResponse: an image in a result is named in it.
      resultAs: (c) => ['result', { content: resultText(c), isError: c.isError }],
    });
  });
});
