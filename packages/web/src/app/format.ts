/** Display helpers: they format values the projections and the wire already computed. */

export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' ? `${code}: ${error.message}` : error.message;
  }
  return String(error);
}

export function formatTime(ms: number): string {
  return new Date(ms).toLocaleString();
}

export function formatDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${seconds % 60}s`;
  return `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
}

/** The client's one shape check, re-exported for the views. */
export { isRecord } from '@strand/client';

export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

const HIGHLIGHT_START = '\u0002';
const HIGHLIGHT_END = '\u0003';

/** Splits a search snippet into plain and highlighted parts (the host marks matches with U+0002 … U+0003). */
export function snippetParts(snippet: string): { text: string; highlighted: boolean }[] {
  const parts: { text: string; highlighted: boolean }[] = [];
  let rest = snippet;
  while (rest.length > 0) {
    const start = rest.indexOf(HIGHLIGHT_START);
    if (start === -1) {
      parts.push({ text: rest, highlighted: false });
      break;
    }
    if (start > 0) parts.push({ text: rest.slice(0, start), highlighted: false });
    const end = rest.indexOf(HIGHLIGHT_END, start + 1);
    const stop = end === -1 ? rest.length : end;
    parts.push({ text: rest.slice(start + 1, stop), highlighted: true });
    rest = end === -1 ? '' : rest.slice(end + 1);
  }
  return parts;
}

/**
 * Active time of a subagent from its `subagentTiming` value: settled turns plus the open turn,
 * which runs until `now` while the child is running (and until its last event otherwise).
 */
export function activeMs(
  timing: {
    readonly settledMs: number;
    readonly active: { readonly since: number; readonly through: number } | null;
  },
  now?: number,
): number {
  if (timing.active === null) return timing.settledMs;
  const end = now === undefined ? timing.active.through : Math.max(now, timing.active.through);
  return timing.settledMs + Math.max(0, end - timing.active.since);
}

const HARNESS_NAMES: Readonly<Record<string, string>> = {
  'claude-code': 'Claude Code',
  codex: 'Codex',
  gemini: 'Gemini CLI',
};

/** The name a person knows a harness by (`header.source.harness`), or the raw name for a newer one. */
export function harnessName(harness: string): string {
  return HARNESS_NAMES[harness] ?? harness;
}
