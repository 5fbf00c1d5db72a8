/**
 * A folder a harness's own environment variable names (`CODEX_HOME`, `CLAUDE_CONFIG_DIR`,
 * `GEMINI_CLI_HOME`): the value when set and not empty, as the harness reads it. `strand export
 * --to` files transcripts by the same variables, so import finds what export wrote.
 */
export function envDir(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const value = env[name];
  return value !== undefined && value !== '' ? value : undefined;
}
