/** One-line messages for stderr: a person reads one line, and `2>&1 | head -1` keeps all of it. */

/** A usage error from commander (`error: …`, maybe with a suggestion on a second line). */
export function usageLine(text: string): string {
  return `strand: ${flatten(text.replace(/^error: /, ''))} (see --help)\n`;
}

/** A failure: the error's message, never its stack. */
export function failureLine(error: unknown): string {
  return `strand: ${flatten(error instanceof Error ? error.message : String(error))}\n`;
}

function flatten(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}
