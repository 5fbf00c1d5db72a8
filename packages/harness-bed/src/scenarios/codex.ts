import { dialogue, toolOutputs, userText } from '../dialogue.js';
import type { BedAnswer, BedRequest } from '../wire/conversation.js';
import { DOT_PNG, SUBTASK, type ScenarioDefinition } from './scenario.js';

/**
 * Codex CLI's scenarios. Each prompt is one `codex exec` (a later one `codex exec resume <id>`);
 * tools run for real (`--dangerously-bypass-approvals-and-sandbox`: the workspace is scratch).
 * `codex exec` has no slash commands (they are the TUI's), so there is no slash-command scenario.
 */

const MULTI_AGENT = 'multi_agent_v1';

const classify = (r: BedRequest): string => {
  const text = userText(r);
  return text.includes(SUBTASK) && !text.includes('Please delegate') ? 'child' : 'main';
};

/** The id `spawn_agent` answered with, read from the tool result the harness sent back. */
function spawnedAgent(r: BedRequest): string {
  for (const output of toolOutputs(r)) {
    try {
      const id = (JSON.parse(output) as { agent_id?: unknown }).agent_id;
      if (typeof id === 'string') return id;
    } catch {
      // Not the spawn result.
    }
  }
  return '';
}

const shell = (cmd: string): BedAnswer => ({ toolCalls: [{ name: 'exec_command', input: { cmd } }] });

export const codexScenarios: readonly ScenarioDefinition[] = [
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
    prompts: { main: [{ text: 'Please write notes.txt with a patch and show it.' }] },
    script: () =>
      dialogue({
        threads: {
          main: [
            { text: 'I will check the folder first.', ...shell('pwd') },
            {
              toolCalls: [
                {
                  name: 'apply_patch',
                  input: '*** Begin Patch\n*** Add File: notes.txt\n+one\n+two\n*** End Patch\n',
                },
              ],
            },
            shell('cat notes.txt'),
            (r) => ({
              text: `The file reads: ${toolOutputs(r).at(-1)?.split('Output:\n').at(-1)?.trim() ?? ''}`,
            }),
          ],
        },
      }),
    async steps(bed) {
      await bed.prompt({ text: 'Please write notes.txt with a patch and show it.' });
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
            { toolCalls: [{ name: 'spawn_agent', namespace: MULTI_AGENT, input: { message: SUBTASK } }] },
            (r) => ({
              toolCalls: [
                { name: 'wait_agent', namespace: MULTI_AGENT, input: { targets: [spawnedAgent(r)] } },
              ],
            }),
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
    name: 'image',
    prompts: { main: [{ text: 'What is in this picture?' }] },
    files: { 'dot.png': DOT_PNG },
    script: () => dialogue({ threads: { main: [{ text: 'A single dot.' }] } }),
    async steps(bed) {
      await bed.prompt({ text: 'What is in this picture?', images: ['dot.png'] });
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
  {
    name: 'compaction',
    prompts: { main: [{ text: 'Please say hello.' }, { text: 'Please go on.' }] },
    script: () =>
      dialogue({
        classify: (r) =>
          userText(r).includes('CONTEXT CHECKPOINT') || r.path.includes('compact') ? 'compaction' : 'main',
        utility: { compaction: { text: 'Summary: the person said hello.' } },
        threads: {
          main: [
            { text: 'Hello!', usage: { inputTokens: 250_000, outputTokens: 20 } },
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
