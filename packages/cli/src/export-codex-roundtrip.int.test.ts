import path from 'node:path';
import { describe, it } from 'vitest';
import { renderCodexRollout } from '@strand/export';
import { assertRoundTrip, place, resultText } from './testing/export-roundtrip.js';

/**
 * The Codex export read back by Strand's own Codex importer: the prompts (their images as images,
 * byte for byte), replies, tool calls and results come back in order; a failed result as its text
 * says it (Codex keeps no error flag), an image in a result named in its text.
 */
describe('a Codex export read back by the Codex importer', () => {
  it('gives back the prompts, replies, tool calls and results in order', async () => {
    await assertRoundTrip({
      harness: 'codex',
      write(document, root) {
        const rollout = renderCodexRollout(document);
        place(root, ['sessions', rollout.dayFolder, rollout.fileName], rollout.text);
        return { sourceDir: path.join(root, 'sessions'), importedId: `codex-${rollout.threadId}` };
      },
      // Codex keeps an output's text: an image in a result is named in it.
      resultAs: (c) => [
        'result',
        { content: c.isError ? `Error: ${resultText(c)}` : resultText(c), isError: false },
      ],
    });
  });
});
