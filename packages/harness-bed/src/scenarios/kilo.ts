import { dialogue } from '../dialogue.js';
import { classify, opencodeScenarios, TITLE } from './opencode.js';
import type { ScenarioDefinition } from './scenario.js';

/**
 * Kilo Code CLI's scenarios: opencode's (kilo is an opencode fork; `kilo run` takes the same
 * flags, and its side requests — the title agent, the compaction agent — are told apart the same
 * way), with two differences found by running it:
 * - the custom command lives in kilo's own project folder, `.kilo/command/` (its config loader
 *   looks for `.kilo` and `.kilocode` folders up from the working folder);
 * - after an automatic compaction kilo replays the prompt that overflowed (a synthetic copy, with
 *   an agent-switch reminder) and the model answers it once, where opencode sends its own
 *   "Continue…" prompt and then answers the overflowing prompt as well: one answer fewer.
 */
export const kiloScenarios: readonly ScenarioDefinition[] = opencodeScenarios.map(
  (scenario): ScenarioDefinition => {
    if (scenario.name === 'slash-command')
      return {
        ...scenario,
        files: {
          '.kilo/command/greet.md':
            '---\ndescription: Greet someone\n---\nSay hello to $ARGUMENTS politely.\n',
        },
      };
    if (scenario.name === 'compaction')
      return {
        ...scenario,
        script: () =>
          dialogue({
            classify,
            utility: { title: TITLE, compaction: { text: 'The person said hello.' } },
            threads: {
              main: [
                // A context this full makes the next turn compact the history first.
                { text: 'Hello!', usage: { inputTokens: 190_000, outputTokens: 5 } },
                { text: 'Going on from the summary.' },
              ],
            },
          }),
      };
    return scenario;
  },
);
