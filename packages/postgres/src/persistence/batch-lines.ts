import { EventLineError, checkStoredEnvelope } from '@strand/persistence';
import type { SessionEvent } from '@strand/session';
import { corrupt } from './persistence-errors.js';

/** One `strand_event_batches` row to write: `count` events from `firstSeq`, as JSON lines. */
export interface BatchRow {
  readonly firstSeq: number;
  readonly count: number;
  readonly lines: string;
}

/**
 * A row holds at most this many events or (about) this many characters, so a suffix read of a
 * log written in huge batches (a seeded prefix, a bulk import) still decodes little before
 * `from`. Ordinary appends (a turn, ~21 events) are far below both bounds: one append, one row.
 */
export const ROW_EVENT_LIMIT = 1024;
export const ROW_CHAR_LIMIT = 1 << 20;

/**
 * Encodes contiguous events (the first has seq `firstSeq`) as rows of JSON lines — each line the
 * envelope exactly as the JSONL backend writes it (`JSON.stringify(event) + '\n'`), so the two
 * formats stay byte-compatible.
 */
export function encodeBatchRows(events: readonly SessionEvent[], firstSeq: number): BatchRow[] {
  const rows: BatchRow[] = [];
  let lines = '';
  let count = 0;
  let start = firstSeq;
  for (const event of events) {
    lines += JSON.stringify(event) + '\n'; // as encodeEventLines writes a line
    count++;
    if (count >= ROW_EVENT_LIMIT || lines.length >= ROW_CHAR_LIMIT) {
      rows.push({ firstSeq: start, count, lines });
      start += count;
      lines = '';
      count = 0;
    }
  }
  if (count > 0) rows.push({ firstSeq: start, count, lines });
  return rows;
}

/**
 * Decodes one batch row into deep-frozen events with seqs `firstSeq … firstSeq + count − 1`.
 * The lines go through one `JSON.parse` as an array (each newline becomes `,`): JSON escapes
 * newlines inside strings, so this is exact, and one parse per row is cheaper than one per line.
 * A wrong line count, bad JSON, a bad envelope, a seq out of place or a -0 is corruption naming
 * the session and the seq.
 */
export function decodeBatchRow(
  lines: string,
  firstSeq: number,
  count: number,
  sessionId: string,
): SessionEvent[] {
  if (count <= 0 || lines.length === 0 || lines.charCodeAt(lines.length - 1) !== 10) {
    throw corrupt(sessionId, firstSeq, 'event batch is empty or does not end with a newline');
  }
  let found = 0;
  for (let nl = lines.indexOf('\n'); nl >= 0; nl = lines.indexOf('\n', nl + 1)) found++;
  if (found !== count) {
    throw corrupt(sessionId, firstSeq, `event batch should hold ${count} lines, holds ${found}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse('[' + lines.slice(0, -1).replaceAll('\n', ',') + ']');
  } catch (error) {
    throw corrupt(sessionId, firstSeq, 'event batch is not JSON lines', error);
  }
  const events = parsed as unknown[];
  for (let i = 0; i < count; i++) checkEnvelope(events[i], firstSeq + i, sessionId);
  return events as SessionEvent[];
}

/** The stored envelope, checked and deep-frozen by the one rule every backend uses. */
function checkEnvelope(raw: unknown, seq: number, sessionId: string): asserts raw is SessionEvent {
  try {
    checkStoredEnvelope(raw, seq);
  } catch (error) {
    if (error instanceof EventLineError) throw corrupt(sessionId, seq, error.message);
    throw error;
  }
}
