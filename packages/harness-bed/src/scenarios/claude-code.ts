import path from 'node:path';
import { dialogue, toolOutputs, userText } from '../dialogue.js';
import type { BedRequest } from '../wire/conversation.js';
import { DOT_PNG, SUBTASK, type ScenarioDefinition } from './scenario.js';

/**
 * Claude Code's scenarios. Each prompt runs `claude -p` (stream-json input for several prompts in
 * one process, and for images); tools run for real (`--allowedTools`).
 */

const TOOLS = ['--allowedTools', 'Bash Edit Write Read Agent'];

/** Claude Code's compaction asks for a summary in a request of its own. */
const isCompaction = (r: BedRequest): boolean => userText(r).includes('CRITICAL: Respond with TEXT ONLY');

const classify = (r: BedRequest): string => {
  if (isCompaction(r)) return 'compaction';
  const text = userText(r);
  return text.includes(SUBTASK) && !text.includes('Please delegate') ? 'child' : 'main';
};

const COMPACTION_SUMMARY = {
  text: '<analysis>The person greeted the assistant.</analysis>\n<summary>1. The person said hello and was greeted back.</summary>',
};

export const claudeScenarios: readonly ScenarioDefinition[] = [
  {
    name: 'multi-turn',
    prompts: { main: [{ text: 'Please say hello.' }, { text: 'Please say goodbye.' }] },
    script: () =>
      dialogue({ threads: { main: [{ text: 'Hello there!' }, { text: 'Goodbye, and thanks.' }] } }),
    async steps(bed) {
      await bed.prompt({ text: 'Please say hello.', also: ['Please say goodbye.'] });
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
              toolCalls: [{ name: 'Write', input: { file_path: file, content: 'one\ntwo\n' } }],
            },
            {
              toolCalls: [
                { name: 'Edit', input: { file_path: file, old_string: 'two', new_string: 'three' } },
              ],
            },
            {
              toolCalls: [
                { name: 'Bash', input: { command: 'cat notes.txt', description: 'Show the notes' } },
              ],
            },
            (r) => ({ text: `The file now reads: ${toolOutputs(r).at(-1)?.trim() ?? ''}` }),
          ],
        },
      });
    },
    async steps(bed) {
      await bed.prompt({ text: 'Please write notes.txt, fix it, and show it.', args: TOOLS });
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
                  name: 'Agent',
                  input: {
                    description: 'Count the files',
                    prompt: SUBTASK,
                    subagent_type: 'general-purpose',
                    run_in_background: false,
                  },
                },
              ],
            },
            { text: 'The subagent counted the files.' },
          ],
          child: [
            { toolCalls: [{ name: 'Bash', input: { command: 'ls | wc -l', description: 'Count files' } }] },
            (r) => ({ text: `There are ${toolOutputs(r).at(-1)?.trim() ?? '?'} files.` }),
          ],
        },
      }),
    async steps(bed) {
      await bed.prompt({ text: 'Please delegate the file count.', args: TOOLS });
    },
  },
  {
    name: 'image',
    prompts: { main: [{ text: 'What is in this picture?' }] },
    files: { 'dot.png': DOT_PNG },
    script: () => dialogue({ threads: { main: [{ text: 'A single dot.' }] } }),
    async steps(bed) {
      await bed.prompt({ text: 'What is in this picture?', images: ['dot.png'] });
    },
  },
  {
    name: 'slash-command',
    prompts: {
      main: [
        { text: 'Please say hello.' },
        { text: '/greet Ada', seen: (t) => t.includes('<command-name>/greet</command-name>') },
      ],
    },
    files: { '.claude/commands/greet.md': 'Say hello to $ARGUMENTS politely.\n' },
    script: () =>
      dialogue({ threads: { main: [{ text: 'Hello!' }, { text: 'Hello, Ada. How do you do?' }] } }),
    async steps(bed) {
      const first = await bed.prompt({ text: 'Please say hello.' });
      await bed.prompt({ text: '/greet Ada', resume: first.sessionId! });
    },
  },
  {
    name: 'compaction',
    prompts: {
      main: [
        { text: 'Please say hello.' },
        { text: '/compact', seen: (t) => t.includes('<command-name>/compact</command-name>') },
        { text: 'Please go on.' },
      ],
    },
    script: () =>
      dialogue({
        classify,
        utility: { compaction: COMPACTION_SUMMARY },
        threads: { main: [{ text: 'Hello!' }, { text: 'Going on from the summary.' }] },
      }),
    async steps(bed) {
      const first = await bed.prompt({ text: 'Please say hello.' });
      await bed.prompt({ text: '/compact', resume: first.sessionId! });
      await bed.prompt({ text: 'Please go on.', resume: first.sessionId! });
    },
  },
  {
    name: 'resume',
    prompts: { main: [{ text: 'Please print the date.' }, { text: 'Please print it again.' }] },
    script: () =>
      dialogue({
        threads: {
          main: [
            {
              toolCalls: [
                { name: 'Bash', input: { command: 'echo 2026-12-02', description: 'Print the date' } },
              ],
            },
            { text: 'It is 2026-12-02.' },
            {
              toolCalls: [
                { name: 'Bash', input: { command: 'echo 2026-12-02', description: 'Print the date' } },
              ],
            },
            { text: 'Still 2026-12-02.' },
          ],
        },
      }),
    async steps(bed) {
      const first = await bed.prompt({ text: 'Please print the date.', args: TOOLS });
      await bed.prompt({ text: 'Please print it again.', resume: first.sessionId!, args: TOOLS });
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
      await bed.prompt({ text: 'Please just say hi.', resume: first.sessionId! });
    },
  },
];
