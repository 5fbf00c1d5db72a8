import { repairEvents, type SessionEvent } from '@strand/session';

/**
 * The crash-repair closers for a log known only from a suffix, or undefined when the suffix
 * cannot tell (no turn boundary in it). Closers depend only on the last turn; if that turn
 * starts inside the suffix, or the suffix ends after a `turn/end`, the suffix decides exactly
 * what `repairEvents` on the whole log would.
 */
export function suffixRepairs(suffix: readonly SessionEvent[], cursor: number): SessionEvent[] | undefined {
  let lastStart = -1;
  let lastEnd = -1;
  for (let i = suffix.length - 1; i >= 0 && (lastStart < 0 || lastEnd < 0); i--) {
    const type = suffix[i]!.type;
    if (type === 'turn/start' && lastStart < 0) lastStart = i;
    else if (type === 'turn/end' && lastEnd < 0) lastEnd = i;
  }
  if (lastStart < 0 && lastEnd < 0) return undefined;
  if (lastEnd > lastStart) return [];
  return repairEvents(suffix.slice(lastStart), cursor);
}
