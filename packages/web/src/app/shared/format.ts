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
export { isRecord } from '@strand/session';

export { truncate } from '@strand/transcript';

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

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * How long before `now` the moment `at` was, in words ("just now", "3 min ago", "2 h ago",
 * "5 d ago", "4 mo ago", "2 y ago"). Pure: the caller supplies `now` (the list ticks it), so tests
 * use fixed clocks. A moment after `now` (another machine's clock ahead) is "just now", never a
 * negative age.
 */
export function formatRelative(at: number, now: number): string {
  const age = now - at;
  if (age < MINUTE) return 'just now';
  if (age < HOUR) return `${Math.floor(age / MINUTE)} min ago`;
  if (age < DAY) return `${Math.floor(age / HOUR)} h ago`;
  if (age < 30 * DAY) return `${Math.floor(age / DAY)} d ago`;
  if (age < 365 * DAY) return `${Math.floor(age / (30 * DAY))} mo ago`;
  return `${Math.floor(age / (365 * DAY))} y ago`;
}
