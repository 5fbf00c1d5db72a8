import path from 'node:path';
import { dialogue, toolOutputs, userText } from '../dialogue.js';
import type { BedAnswer, BedRequest } from '../wire/conversation.js';
import { DOT_PNG, SUBTASK, type ScenarioDefinition } from './scenario.js';

/**
 * Qwen Code's scenarios. Each prompt is one `qwen -p` (a later one `--resume`), with `--yolo` so
 * tools run for real in the scratch workspace.
 */

const shell = (command: string): BedAnswer => ({
  toolCalls: [{ name: 'run_shell_command', input: { command, is_background: false } }],
});

/** Qwen Code asks for the history's summary in a request of its own, ending with this directive. */
const isCompression = (r: BedRequest): boolean => userText(r).includes('produce the <state_snapshot> XML');

const classify = (r: BedRequest): string => {
  if (r.jsonSchema !== undefined) return 'structured';
  if (isCompression(r)) return 'compression';
  const text = userText(r);
  return text.includes(SUBTASK) && !text.includes('Please delegate') ? 'child' : 'main';
};

export const qwenScenarios: readonly ScenarioDefinition[] = [
  {
    name: 'multi-turn',
    prompts: {
      main: [{ text: 'Please say hello.' }, { text: 'Please say goodbye.' }, { text: 'Please say thanks.' }],
    },
    script: () =>
      dialogue({
        threads: { main: [{ text: 'Hello there!' }, { text: 'Goodbye.' }, { text: 'Thank you!' }] },
      }),
    async steps(bed) {
      const first = await bed.prompt({ text: 'Please say hello.' });
      await bed.prompt({ text: 'Please say goodbye.', resume: first.sessionId! });
      await bed.prompt({ text: 'Please say thanks.', resume: first.sessionId! });
    },
  },
  {
    name: 'tool-calls',
    prompts: { main: [{ text: 'Please write notes.txt, fix it, and show it.' }] },
    script: (ws) => {
      const file = path.join(ws.cwd, 'notes.txt');
      return dialogue({
        threads: {
          main: [
            {
              text: 'I will write the file.',
              toolCalls: [{ name: 'write_file', input: { file_path: file, content: 'one\ntwo\n' } }],
            },
            {
              toolCalls: [
                { name: 'edit', input: { file_path: file, old_string: 'two', new_string: 'three' } },
              ],
            },
            shell('cat notes.txt'),
            (r) => ({ text: `The file now reads: ${toolOutputs(r).at(-1) ?? ''}` }),
          ],
        },
      });
    },
    async steps(bed) {
      await bed.prompt({ text: 'Please write notes.txt, fix it, and show it.' });
    },
  },
  {
    name: 'image',
    prompts: {
      main: [
        {
          text: 'What is in this picture? @dot.png',
          seen: (t) => t.trim() === 'What is in this picture? @dot.png',
        },
      ],
    },
    files: { 'dot.png': DOT_PNG },
    script: () => dialogue({ threads: { main: [{ text: 'A single dot.' }] } }),
    async steps(bed) {
      // A model Qwen Code knows takes images (`qwen3-vl-*`): for a text-only one it sends a
      // notice in the image's place.
      await bed.prompt({
        text: 'What is in this picture?',
        images: ['dot.png'],
        args: ['-m', 'qwen3-vl-plus'],
      });
    },
  },
  {
    name: 'subagent',
    prompts: { main: [{ text: 'Please delegate the file count.' }], child: [{ text: SUBTASK }] },
    files: { 'a.txt': 'a\n', 'b.txt': 'b\n' },
    script: () =>
      dialogue({
        classify,
        threads: {
          main: [
            {
              toolCalls: [
                {
                  name: 'agent',
                  input: {
                    description: 'Count files',
                    prompt: SUBTASK,
                    subagent_type: 'general-purpose',
                    // Top-level agents run in the background by default; the result then comes back
                    // as a notification and a further turn the script would have to answer.
                    run_in_background: false,
                  },
                },
              ],
            },
            { text: 'The subagent counted the files.' },
          ],
          child: [shell('ls | wc -l'), { text: 'There are 2 files.' }],
        },
      }),
    async steps(bed) {
      await bed.prompt({ text: 'Please delegate the file count.' });
    },
  },
  {
    name: 'slash-command',
    prompts: { main: [{ text: '/greet Ada', seen: (t) => t.trim() === 'Say hello to Ada politely.' }] },
    files: {
      '.qwen/commands/greet.toml':
        'description = "Greet someone"\nprompt = "Say hello to {{args}} politely."\n',
    },
    script: () => dialogue({ threads: { main: [{ text: 'Hello, Ada. How do you do?' }] } }),
    async steps(bed) {
      await bed.prompt({ text: '/greet Ada' });
    },
  },
  {
    name: 'compaction',
    prompts: { main: [{ text: 'Please say hello.' }, { text: 'Please go on.' }] },
    script: () =>
      dialogue({
        classify,
        utility: {
          compression: {
            text: '<analysis>Short.</analysis><state_snapshot>The person said hello.</state_snapshot>',
            // Qwen Code counts the compressed history as the summary request's input (less 1,000):
            // a small one would leave the context as full as before, a failed compression.
            usage: { inputTokens: 980_000, outputTokens: 50 },
          },
        },
        threads: {
          main: [{ text: 'Hello!' }, { text: 'Going on from the snapshot.' }],
        },
      }),
    async steps(bed) {
      // `/compress` in a run of its own: an automatic compression runs after the turn's prompt is
      // recorded, so the transcript has the prompt before the summary and the acknowledgement
      // Qwen Code puts in the model's mouth, while the model is sent them after it.
      const first = await bed.prompt({ text: 'Please say hello.' });
      await bed.prompt({ text: '/compress', resume: first.sessionId! });
      await bed.prompt({ text: 'Please go on.', resume: first.sessionId! });
    },
  },
  {
    name: 'interrupt',
    prompts: { main: [{ text: 'Please tell a long story.' }, { text: 'Please just say hi.' }] },
    script: () =>
      dialogue({
        threads: {
          main: [
            { text: 'Once upon a time, in a land far away, there lived', pieces: 4, hold: true },
            { text: 'Hi.' },
          ],
        },
      }),
    async steps(bed) {
      const first = await bed.prompt({
        text: 'Please tell a long story.',
        interruptWhen: bed.endpoint.held(),
        allowFailure: true,
      });
      // An interrupted run prints no result (where the session id is): `--continue` resumes the
      // folder's latest session.
      await bed.prompt(
        first.sessionId === undefined
          ? { text: 'Please just say hi.', args: ['--continue'] }
          : { text: 'Please just say hi.', resume: first.sessionId },
      );
    },
  },
  {
    name: 'resume',
    prompts: { main: [{ text: 'Please print the date.' }, { text: 'Please print it again.' }] },
    script: () =>
      dialogue({
        threads: {
          main: [
            shell('echo 2026-12-02'),
            { text: 'It is 2026-12-02.' },
            shell('echo 2026-12-02'),
            { text: 'Still 2026-12-02.' },
          ],
        },
      }),
    async steps(bed) {
      const first = await bed.prompt({ text: 'Please print the date.' });
      await bed.prompt({ text: 'Please print it again.', resume: first.sessionId! });
    },
  },
];
