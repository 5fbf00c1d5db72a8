/**
 * A problem a running command reports and goes on past (for `console.error`, no newline):
 * `strand: <what>: <the error's message>` on one line, never its stack. Apart from
 * `error-line.ts` on purpose: `main.ts` imports that one, and a module the commands shared with
 * it would become a chunk `strand --help` loads too.
 */
export function problemLine(what: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return `strand: ${`${what}: ${message}`.replace(/\s*\n\s*/g, ' ').trim()}`;
}
