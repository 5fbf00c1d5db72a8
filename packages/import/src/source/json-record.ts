import { isRecord } from '@strand/session';
import type { SourceLine } from './line-reader.js';

export type JsonRecord = Record<string, unknown>;

export type ParsedLine =
  | { readonly kind: 'record'; readonly record: JsonRecord }
  | { readonly kind: 'blank' }
  | { readonly kind: 'bad'; readonly reason: string };

/** Parses one transcript line into an object record, or says why it cannot be one. */
export function parseLine(line: SourceLine): ParsedLine {
  // Only a line starting with whitespace can be blank; trimming every line would copy it.
  const text = line.text;
  if (text.length === 0 || (text.charCodeAt(0) <= 32 && text.trim().length === 0)) return { kind: 'blank' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return {
      kind: 'bad',
      reason: line.terminated ? `malformed JSON: ${why}` : 'torn last line (no newline, incomplete JSON)',
    };
  }
  if (!isRecord(value)) return { kind: 'bad', reason: 'line is not a JSON object' };
  return { kind: 'record', record: value };
}

/** A JSON object: the one `isRecord`, of `@strand/session`. */
export { isRecord };

export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Integer ms of an ISO timestamp, or undefined when absent or unreadable. */
export function timeOf(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const ms = Date.parse(value);
  return Number.isSafeInteger(ms) ? ms : undefined;
}

/** A non-negative integer count, or 0. */
export function count(value: unknown): number {
  return Number.isSafeInteger(value) && (value as number) >= 0 ? (value as number) : 0;
}
