/**
 * `text` as one POSIX shell word, for a command printed for a person to run (the next page's
 * `strand list`, `cd <cwd> && claude --resume`): as it is when it holds nothing the shell reads,
 * else single-quoted.
 */
export function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}
