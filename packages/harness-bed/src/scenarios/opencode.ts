import path from 'node:path';
import { dialogue, toolOutputs, userText } from '../dialogue.js';
import type { BedAnswer, BedRequest } from '../wire/conversation.js';
import { DOT_PNG, SUBTASK, type ScenarioDefinition } from './scenario.js';

/**
 * opencode's scenarios. Each prompt is one `opencode run` (a later one `--session <id>`), with
 * `--auto` so tools run for real in the scratch workspace. Beside the conversation, opencode asks
 * its small model for the session's title (the `title` agent): a utility thread.
 */

const isTitle = (r: BedRequest): boolean => r.system.includes('You are a title generator');

/** opencode's compaction asks the `compaction` agent, without tools, to summarize the history. */
const isCompaction = (r: BedRequest): boolean =>
  r.tools.length === 0 && /summar/i.test(r.system + userText(r));

/** The thread of a request: the title and compaction side requests, a subagent's, the person's. */
export const classify = (r: BedRequest): string => {
  if (isTitle(r)) return 'title';
  if (isCompaction(r)) return 'compaction';
  const text = userText(r);
  return text.includes(SUBTASK) && !text.includes('Please delegate') ? 'child' : 'main';
};

export const TITLE: BedAnswer = { text: 'Bed conversation' };

const bash = (command: string, description: string): BedAnswer => ({
  toolCalls: [{ name: 'bash', input: { command, description } }],
});

export const opencodeScenarios: readonly ScenarioDefinition[] = [
  {
    name: 'multi-turn',
    prompts: {
      main: [{ text: 'Please say hello.' }, { text: 'Please say goodbye.' }, { text: 'Please say thanks.' }],
    },
    script: () =>
      dialogue({
        classify,
        utility: { title: TITLE },
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
        classify,
        utility: { title: TITLE },
        threads: {
          main: [
            {
              text: 'I will write the file.',
              toolCalls: [{ name: 'write', input: { filePath: file, content: 'one\ntwo\n' } }],
            },
            {
              toolCalls: [{ name: 'edit', input: { filePath: file, oldString: 'two', newString: 'three' } }],
            },
            bash('cat notes.txt', 'Show notes.txt'),
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
    name: 'subagent',
    prompts: { main: [{ text: 'Please delegate the file count.' }], child: [{ text: SUBTASK }] },
    files: { 'a.txt': 'a\n', 'b.txt': 'b\n' },
    script: () =>
      dialogue({
        classify,
        utility: { title: TITLE },
        threads: {
          main: [
            {
              toolCalls: [
                {
                  name: 'task',
                  input: { description: 'Count the files', prompt: SUBTASK, subagent_type: 'general' },
                },
              ],
            },
            { text: 'The subagent counted the files.' },
          ],
          child: [bash('ls | wc -l', 'Count the files'), { text: 'There are 2 files.' }],
        },
      }),
    async steps(bed) {
      await bed.prompt({ text: 'Please delegate the file count.' });
    },
  },
  {
    name: 'image',
    prompts: { main: [{ text: 'What is in this picture?' }] },
    files: { 'dot.png': DOT_PNG },
    script: () =>
      dialogue({ classify, utility: { title: TITLE }, threads: { main: [{ text: 'A single dot.' }] } }),
    async steps(bed) {
      await bed.prompt({ text: 'What is in this picture?', images: ['dot.png'] });
    },
  },
  {
    name: 'slash-command',
    prompts: { main: [{ text: '/greet Ada', seen: (t) => t.trim() === 'Say hello to Ada politely.' }] },
    files: {
      '.opencode/command/greet.md':
        '---\ndescription: Greet someone\n---\nSay hello to $ARGUMENTS politely.\n',
    },
    script: () =>
      dialogue({
        classify,
        utility: { title: TITLE },
        threads: { main: [{ text: 'Hello, Ada. How do you do?' }] },
      }),
    async steps(bed) {
      await bed.prompt({ text: 'Ada', args: ['--command', 'greet'] });
    },
  },
  {
    name: 'compaction',
    prompts: { main: [{ text: 'Please say hello.' }, { text: 'Please go on.' }] },
    script: () =>
      dialogue({
        classify,
        utility: { title: TITLE, compaction: { text: 'The person said hello.' } },
        threads: {
          main: [
            // A context this full makes the next turn compact the history first.
            { text: 'Hello!', usage: { inputTokens: 190_000, outputTokens: 5 } },
            // opencode continues on its own after an automatic compaction (a synthetic prompt),
            // then answers the prompt that overflowed.
            { text: 'Going on from the summary.' },
            { text: 'Going on.' },
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
        classify,
        utility: { title: TITLE },
        threads: {
          main: [
            bash('echo 2026-12-02', 'Print the date'),
            { text: 'It is 2026-12-02.' },
            bash('echo 2026-12-02', 'Print the date'),
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
    prompts: { main: [{ text: 'Please tell a long story.' }, { text: 'Please just say hi.' }] },
    script: () =>
      dialogue({
        classify,
        utility: { title: TITLE },
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
      await bed.prompt({ text: 'Please just say hi.', resume: first.sessionId ?? 'latest' });
    },
  },
];
