import stripAnsi from 'strip-ansi';

/**
 * Terminal output (a command's, a tool's) as plain text: the escape sequences a terminal reads as
 * colour, style or cursor movement removed, the text kept. For readers that must not pass raw
 * escapes on — a search index (escapes glue to words), a model (MCP text), a terminal of its own
 * (the CLI). The log keeps the escapes; the web renders them as colour instead.
 */
export function plainTerminalText(text: string): string {
  return stripAnsi(text);
}
