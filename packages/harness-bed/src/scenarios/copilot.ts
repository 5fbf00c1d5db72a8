import path from 'node:path';
import { dialogue, toolOutputs, userText } from '../dialogue.js';
import type { TypedPrompt } from '../expected.js';
import type { BedAnswer, BedRequest } from '../wire/conversation.js';
import { DOT_PNG, SUBTASK, type ScenarioDefinition } from './scenario.js';

/**
 * GitHub Copilot CLI's scenarios. Each prompt is one `copilot -p` (a later one `--resume=<id>`),
 * with `--allow-all` so tools run for real in the scratch workspace.
 */

/**
 * Copilot CLI sends every prompt with a `<current_datetime>` line ahead of it (its
 * `transformedContent`); the transcript keeps the typed text (`content`).
 */
const DATETIME = /^\s*<current_datetime>[^<]*<\/current_datetime>\s*/;
const typed = (text: string): TypedPrompt => ({
  text,
  seen: (t) => t.replace(DATETIME, '').trim() === text,
  recorded: (t) => t.replace(DATETIME, ''),
});

const bash = (command: string): BedAnswer => ({
  toolCalls: [{ name: 'bash', input: { command, description: 'Run a command' } }],
});

/**
 * Copilot CLI asks for the history's summary in a request of its own (`/compact`), the history
 * followed by this directive.
 */
const isCompaction = (r: BedRequest): boolean =>
  userText(r).includes('Please create a detailed summary of the conversation so far');

const classify = (r: BedRequest): string => {
  if (isCompaction(r)) return 'compaction';
  const text = userText(r);
  return text.includes(SUBTASK) && !text.includes('Please delegate') ? 'child' : 'main';
};

export const copilotScenarios: readonly ScenarioDefinition[] = [
  {
    name: 'multi-turn',
    prompts: {
      main: [typed('Please say hello.'), typed('Please say goodbye.'), typed('Please say thanks.')],
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
    prompts: { main: [typed('Please write notes.txt, fix it, and show it.')] },
    script: (ws) => {
      const file = path.join(ws.cwd, 'notes.txt');
      return dialogue({
        threads: {
          main: [
            {
              text: 'I will write the file.',
              toolCalls: [{ name: 'create', input: { path: file, file_text: 'one\ntwo\n' } }],
            },
            { toolCalls: [{ name: 'edit', input: { path: file, old_str: 'two', new_str: 'three' } }] },
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
    prompts: { main: [typed('What is in this picture?')] },
    files: { 'dot.png': DOT_PNG },
    script: () => dialogue({ threads: { main: [{ text: 'A single dot.' }] } }),
    async steps(bed) {
      await bed.prompt({ text: 'What is in this picture?', images: ['dot.png'] });
    },
  },
  {
    name: 'subagent',
    prompts: { main: [typed('Please delegate the file count.')], child: [typed(SUBTASK)] },
    files: { 'a.txt': 'a\n', 'b.txt': 'b\n' },
    script: () =>
      dialogue({
        classify,
        threads: {
          main: [
            {
              toolCalls: [
                {
                  name: 'task',
                  input: {
                    name: 'counter',
                    description: 'Count files',
                    prompt: SUBTASK,
                    agent_type: 'general-purpose',
                    mode: 'sync',
                  },
                },
              ],
            },
            { text: 'The subagent counted the files.' },
          ],
          child: [bash('ls | wc -l'), { text: 'There are 2 files.' }],
        },
      }),
    async steps(bed) {
      await bed.prompt({ text: 'Please delegate the file count.' });
    },
  },
  {
    name: 'compaction',
    prompts: { main: [typed('Please say hello.'), typed('Please go on.')] },
    script: () =>
      dialogue({
        classify,
        utility: { compaction: { text: '<summary>The person said hello.</summary>' } },
        threads: { main: [{ text: 'Hello!' }, { text: 'Going on from the summary.' }] },
      }),
    async steps(bed) {
      const first = await bed.prompt({ text: 'Please say hello.' });
      await bed.prompt({ text: '/compact', resume: first.sessionId! });
      await bed.prompt({ text: 'Please go on.', resume: first.sessionId! });
    },
  },
  {
    name: 'interrupt',
    prompts: { main: [typed('Please tell a long story.'), typed('Please just say hi.')] },
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
      // An interrupted run prints no `result` line (where the session id is): `--continue`
      // resumes the latest session.
      await bed.prompt(
        first.sessionId === undefined
          ? { text: 'Please just say hi.', args: ['--continue'] }
          : { text: 'Please just say hi.', resume: first.sessionId },
      );
    },
  },
  {
    name: 'resume',
    prompts: { main: [typed('Please print the date.'), typed('Please print it again.')] },
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
];
