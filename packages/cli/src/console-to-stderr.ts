/**
 * For the stdio protocol commands (`strand mcp`, `strand acp`): stdout carries protocol frames
 * only, so every console method that writes stdout is pointed at stderr before anything runs (a
 * log line from any package would otherwise corrupt the stream the other side parses).
 */
export function routeConsoleToStderr(): void {
  const toStderr = console.error.bind(console);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  console.warn = toStderr;
}
