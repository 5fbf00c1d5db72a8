import { sha256Hex } from './sha256.js';

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
}

/** Where the first line's marker goes until the rest is written and its digest known. */
export const MARKER_SLOT = '\u0000strand-export-marker\u0000';

/**
 * The file's text from its records (each already JSON), the first carrying `MARKER_SLOT` as the
 * value of `STRAND_EXPORT_MARKER`: the slot becomes the marker with the digest of the rest.
 */
export function sealExport(lines: readonly string[], origin: Omit<StrandExportMarker, 'digest'>): string {
  if (lines.length === 0) return '';
  const rest = lines
    .slice(1)
    .map((l) => `${l}\n`)
    .join('');
  const marker: StrandExportMarker = { ...origin, digest: digestOf(rest) };
  const first = lines[0]!.replace(JSON.stringify(MARKER_SLOT), JSON.stringify(marker));
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
