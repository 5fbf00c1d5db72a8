import path from 'node:path';
import { dialogue, toolOutputs, userText } from '../dialogue.js';
import type { BedRequest } from '../wire/conversation.js';
import { SUBTASK, type ScenarioDefinition } from './scenario.js';

/**
 * Cline CLI 3.x's scenarios. Each is one headless `cline --json` run (tools auto-approved): the
 * CLI resumes a session (`--id`) only in its interactive TUI, so there is no multi-turn, resume
 * or interrupt scenario; its slash commands and compaction are the TUI's too.
 */

// A spawned agent's requests carry the task it was given as their first user text.
const classify = (r: BedRequest): string =>
  userText(r).includes(SUBTASK) && !userText(r).includes('Please delegate') ? 'child' : 'main';

export const clineScenarios: readonly ScenarioDefinition[] = [
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
              toolCalls: [{ name: 'editor', input: { path: file, new_text: 'one\ntwo\n' } }],
            },
            { toolCalls: [{ name: 'editor', input: { path: file, old_text: 'two', new_text: 'three' } }] },
            { toolCalls: [{ name: 'run_commands', input: { commands: ['cat notes.txt'] } }] },
            { toolCalls: [{ name: 'run_commands', input: { commands: ['exit 3'] } }] },
            (r) => ({ text: `Done; the last command failed: ${toolOutputs(r).at(-1) ?? ''}` }),
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
    prompts: {
      main: [{ text: 'Please delegate counting the files to a helper.' }],
      child: [{ text: SUBTASK }],
    },
    script: () =>
      dialogue({
        classify,
        threads: {
          main: [
            {
              toolCalls: [
                { name: 'spawn_agent', input: { systemPrompt: 'You count files.', task: SUBTASK } },
              ],
            },
            { text: 'The helper counted the files.' },
          ],
          child: [
            { toolCalls: [{ name: 'run_commands', input: { commands: ['ls | wc -l'] } }] },
            { text: '0 files.' },
          ],
        },
      }),
    async steps(bed) {
      await bed.prompt({ text: 'Please delegate counting the files to a helper.' });
    },
  },
];
