import path from 'node:path';
import { describe, it } from 'vitest';
import { renderClaudeTranscript } from '@strand/export';
import { assertRoundTrip, place } from './testing/export-roundtrip.js';

/**
 * The Claude Code export read back by Strand's own Claude Code importer: the prompts, replies,
 * tool calls and results come back in order, the images of prompts and results as images with
 * the same bytes (a property over generated sessions).
 */
describe('a Claude Code export read back by the Claude Code importer', () => {
  it('gives back the prompts, replies, tool calls and results in order', async () => {
    await assertRoundTrip({
      harness: 'claude-code',
      write(document, root) {
        const transcript = renderClaudeTranscript(document);
        place(root, ['projects', transcript.projectFolder, transcript.fileName], transcript.text);
        return { sourceDir: path.join(root, 'projects'), importedId: `claude-${transcript.sessionId}` };
      },
    });
  });
});
