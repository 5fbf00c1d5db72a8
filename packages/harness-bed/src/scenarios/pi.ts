import path from 'node:path';
import { dialogue, toolOutputs, userText } from '../dialogue.js';
import type { BedAnswer, BedRequest } from '../wire/conversation.js';
import { DOT_PNG, type ScenarioDefinition } from './scenario.js';

/**
 * pi's scenarios. Each prompt is one `pi -p` (a later one `--session <id>`); pi runs its tools
 * without asking, in the scratch workspace. pi has no subagents of its own (they are an
 * extension's), so there is no subagent scenario. `pi -p` has no SIGINT handler: the process
 * dies at once and the answer in flight is never written (in a session with no answer yet, not
 * even the file), so the interrupt scenario interrupts the second prompt of a session.
 */

/** pi summarises the history for a compaction in a request of its own: the conversation framed. */
const isCompaction = (r: BedRequest): boolean => userText(r).includes('<conversation>');

const classify = (r: BedRequest): string => (isCompaction(r) ? 'compaction' : 'main');

const bash = (command: string): BedAnswer => ({ toolCalls: [{ name: 'bash', input: { command } }] });

export const piScenarios: readonly ScenarioDefinition[] = [
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
              toolCalls: [{ name: 'write', input: { path: file, content: 'one\ntwo\n' } }],
            },
            {
              toolCalls: [
                { name: 'edit', input: { path: file, edits: [{ oldText: 'two', newText: 'three' }] } },
              ],
            },
            bash('cat notes.txt'),
            // A failing command: its result is an error.
            bash('cat missing.txt'),
            (r) => ({ text: `The file now reads: ${toolOutputs(r).at(-2) ?? ''}` }),
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
      main: [{ text: 'What is in this picture?', seen: (t) => t.includes('What is in this picture?') }],
    },
    files: { 'dot.png': DOT_PNG },
    script: () => dialogue({ threads: { main: [{ text: 'A single dot.' }] } }),
    async steps(bed) {
      await bed.prompt({ text: 'What is in this picture?', images: ['dot.png'] });
    },
  },
  {
    name: 'slash-command',
    prompts: { main: [{ text: '/greet Ada', seen: (t) => t.trim() === 'Say hello to Ada politely.' }] },
    files: {
      '.pi/prompts/greet.md': '---\ndescription: Greet someone\n---\nSay hello to $ARGUMENTS politely.\n',
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
        utility: { compaction: { text: '## Goal\nThe person said hello.' } },
        threads: {
          main: [
            // A context this full makes the next prompt compact the history first.
            { text: 'Hello!', usage: { inputTokens: 190_000, outputTokens: 5 } },
            { text: 'Going on from the summary.' },
          ],
        },
      }),
    async steps(bed) {
      const first = await bed.prompt({ text: 'Please say hello.' });
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
            bash('echo 2026-12-02'),
            { text: 'It is 2026-12-02.' },
            bash('echo 2026-12-02'),
            { text: 'Still 2026-12-02.' },
          ],
        },
      }),
    async steps(bed) {
      const first = await bed.prompt({ text: 'Please print the date.' });
      await bed.prompt({ text: 'Please print it again.', resume: first.sessionId! });
    },
  },
  {
    name: 'interrupt',
    prompts: {
      main: [
        { text: 'Please say hello.' },
        { text: 'Please tell a long story.' },
        { text: 'Please just say hi.' },
      ],
    },
    script: () =>
      dialogue({
        threads: {
          main: [
            { text: 'Hello!' },
            { text: 'Once upon a time, in a land far away, there lived', pieces: 4, hold: true },
            { text: 'Hi.' },
          ],
        },
      }),
    async steps(bed) {
      const first = await bed.prompt({ text: 'Please say hello.' });
      await bed.prompt({
        text: 'Please tell a long story.',
        resume: first.sessionId!,
        interruptWhen: bed.endpoint.held(),
        allowFailure: true,
      });
      await bed.prompt({ text: 'Please just say hi.', resume: first.sessionId! });
    },
  },
];
