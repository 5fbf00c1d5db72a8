import { opencodeScenarios } from './opencode.js';
import type { ScenarioDefinition } from './scenario.js';

/**
 * Kilo Code CLI's scenarios: opencode's (kilo is an opencode fork and `kilo run` takes the same
 * flags, asks its small model for a title the same way, and compacts the same way), with the
 * custom command in kilo's own project folder, `.kilo/command/` (its config loader looks for
 * `.kilo` and `.kilocode` folders up from the working folder).
 */
export const kiloScenarios: readonly ScenarioDefinition[] = opencodeScenarios.map((scenario) =>
  scenario.name === 'slash-command'
    ? {
        ...scenario,
        files: {
          '.kilo/command/greet.md':
            '---\ndescription: Greet someone\n---\nSay hello to $ARGUMENTS politely.\n',
        },
      }
    : scenario,
);
