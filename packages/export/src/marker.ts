import { sha256Hex, utf8Sha256 } from './sha256.js';

/**
 * The field on the first line of a JSONL export naming the Strand session and cut it came from.
 * Every target harness (Claude Code, Codex, Gemini CLI) appends when it resumes and never
 * rewrites a line it has written, so the marker stays with the file.
 */
export const STRAND_EXPORT_MARKER = 'strandExport';

export interface StrandExportMarker {
  readonly origin: string;
  readonly cut: number;
  readonly running: boolean;
  /**
   * SHA-256 (hex) of every line after the first as written: a file whose rest no longer matches
   * (the harness appended to it by resuming) is no longer Strand's export.
   */
  readonly digest: string;
  /**
   * The UTF-8 byte length of every line after the first as written (absent in exports written
   * before it existed): in a file the harness continued, the export ends this many bytes after
   * the first line's newline, and what follows is the harness's own.
   */
  readonly bytes?: number;
}

/** Where the first line's marker goes until the rest is written and its digest known. */
export const MARKER_SLOT = '\u0000strand-export-marker\u0000';

/**
 * The file's text from its records (each already JSON), the first carrying `MARKER_SLOT` as the
 * value of `STRAND_EXPORT_MARKER`: the slot becomes the marker with the digest of the rest.
 */
export function sealExport(
  lines: readonly string[],
  origin: Omit<StrandExportMarker, 'digest' | 'bytes'>,
): string {
  if (lines.length === 0) return '';
  const rest = lines
    .slice(1)
    .map((l) => `${l}\n`)
    .join('');
  const { digest, bytes } = utf8Sha256(rest);
  const marker: StrandExportMarker = { ...origin, digest, bytes };
  // A function, not a string: `$` patterns in an origin id must not be read as replacement patterns.
  const first = lines[0]!.replace(JSON.stringify(MARKER_SLOT), () => JSON.stringify(marker));
  return `${first}\n${rest}`;
}

const digestOf = sha256Hex;

/**
 * The marker of a file that is still exactly one of Strand's exports (its first line names the
 * origin, and the rest is byte for byte what was written then); undefined for any other file,
 * such as an export the harness has since continued.
 */
export function strandExportOf(text: string): StrandExportMarker | undefined {
  const end = text.indexOf('\n');
  if (end < 0) return undefined;
  let first: unknown;
  try {
    first = JSON.parse(text.slice(0, end));
  } catch {
    return undefined;
  }
  const marker = (first as Record<string, unknown> | null)?.[STRAND_EXPORT_MARKER] as
    | Partial<StrandExportMarker>
    | undefined;
  if (typeof marker?.digest !== 'string' || typeof marker.origin !== 'string') return undefined;
  return digestOf(text.slice(end + 1)) === marker.digest ? (marker as StrandExportMarker) : undefined;
}

/** What a reader of any harness file learns from a Strand export's marker (`readExportMarker`). */
export interface ExportMarkerReading {
  readonly origin: string;
  readonly cut: number;
  /** The export's bytes after the first line (see `StrandExportMarker.bytes`), when recorded. */
  readonly bytes?: number;
  /** True while the file is still exactly Strand's export (nothing appended, nothing changed). */
  readonly untouched: boolean;
}

/**
 * The marker of the file's first line (the line's text, without its newline), whether or not the
 * harness continued the file since: undefined for a line that carries none (any other transcript)
 * or one whose marker is not Strand's shape. Says nothing of the rest of the file.
 */
export function exportMarkerOfLine(firstLine: string): Omit<ExportMarkerReading, 'untouched'> | undefined {
  // Cheap refusal first: every line of every transcript an importer reads comes through here once.
  if (!firstLine.includes(STRAND_EXPORT_MARKER)) return undefined;
  let record: unknown;
  try {
    record = JSON.parse(firstLine);
  } catch {
    return undefined;
  }
  if (typeof record !== 'object' || record === null) return undefined;
  const marker = (record as Record<string, unknown>)[STRAND_EXPORT_MARKER] as
    | Partial<Record<keyof StrandExportMarker, unknown>>
    | undefined;
  if (typeof marker !== 'object' || marker === null) return undefined;
  const { origin, cut, bytes } = marker;
  if (typeof origin !== 'string' || origin === '' || !Number.isSafeInteger(cut) || (cut as number) < 0)
    return undefined;
  const known = Number.isSafeInteger(bytes) && (bytes as number) >= 0;
  return known ? { origin, cut: cut as number, bytes: bytes as number } : { origin, cut: cut as number };
}

/**
 * The marker of a whole file's text, continued or not: `untouched` says whether the file is still
 * byte for byte the export (`strandExportOf`); undefined when its first line carries no marker.
 */
export function readExportMarker(text: string): ExportMarkerReading | undefined {
  const end = text.indexOf('\n');
  const read = exportMarkerOfLine(end < 0 ? text : text.slice(0, end));
  if (read === undefined) return undefined;
  return { ...read, untouched: end >= 0 && strandExportOf(text) !== undefined };
}
