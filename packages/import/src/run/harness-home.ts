import { homedir } from 'node:os';
import path from 'node:path';

/**
 * Where each harness keeps its folder, and the environment variable that moves it: the one rule
 * both `strand import` (its default source folders) and `strand export --to` (where it files a
 * transcript) follow, so import finds what export wrote. `names` tells what the variable holds:
 * the folder itself (`CLAUDE_CONFIG_DIR`, `CODEX_HOME`) or the home the folder sits in
 * (`GEMINI_CLI_HOME`), as each harness reads it.
 */
const HARNESS_HOMES = {
  'claude-code': { folder: '.claude', variable: 'CLAUDE_CONFIG_DIR', names: 'folder' },
  codex: { folder: '.codex', variable: 'CODEX_HOME', names: 'folder' },
  gemini: { folder: '.gemini', variable: 'GEMINI_CLI_HOME', names: 'home' },
} as const;

export type HomedHarness = keyof typeof HARNESS_HOMES;

/**
 * The harness's folder (`~/.codex`…): under `home` when one is given explicitly (`--home`), else
 * where its variable points when set and not empty, else under the user's home.
 */
export function harnessHome(
  harness: HomedHarness,
  options: {
    readonly home?: string | undefined;
    readonly env?: NodeJS.ProcessEnv;
    readonly userHome?: string;
  } = {},
): string {
  const { folder, variable, names } = HARNESS_HOMES[harness];
  if (options.home !== undefined) return path.join(path.resolve(options.home), folder);
  const env = options.env ?? process.env;
  const value = env[variable];
  if (value !== undefined && value !== '')
    return names === 'folder' ? path.resolve(value) : path.join(path.resolve(value), folder);
  return path.join(options.userHome ?? env.HOME ?? homedir(), folder);
}
