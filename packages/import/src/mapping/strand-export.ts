import { exportMarkerOfLine, readExportMarker } from '@strand/export/marker';
import { promises as fsp } from 'node:fs';
import type { Harness } from '../types.js';
import type { SourceLine } from '../source/line-reader.js';
import type { MappedFile } from './session-plan.js';

/**
 * Strand's own exports (`strand export --to`), as every harness importer reads them: one rule for
 * Claude Code, Codex and Gemini CLI. An export's first line carries the marker
 * (`@strand/export`'s `strandExport: {origin, cut, bytes, …}`); the harness, resuming it, appends
 * to the file and keeps that line.
 *
 * - A file that is still exactly the export, whose origin session is stored, is not imported: it
 *   would be a second copy of the origin (`exportSkipReason`).
 * - In a continued file, the harness's first record after the export's `bytes` is preceded by a
 *   `session/continued-from {session, cut, harness}` event (`ExportContinuation`): the events
 *   before it are the exported prefix. Importing a prefix of the file still gives a prefix of the
 *   events (the event is written only once a record past the export is read).
 */
export interface ContinuedFrom {
  readonly session: string;
  readonly cut: number;
  readonly harness: Harness;
}

/** What a mapped file says of its export marker (`MappedFile.strandExport`). */
export interface ExportFacts {
  readonly origin: string;
  readonly cut: number;
  /** True once a record past the export's bytes was read: the harness continued the file. */
  readonly continued: boolean;
}

/**
 * Follows a file's lines (each fed once, in order, before the harness maps it) and says where the
 * harness's own records begin. Lines are counted as their UTF-8 bytes plus a `\n`, as every
 * target writes them.
 */
export class ExportContinuation {
  #marker: { readonly origin: string; readonly cut: number; readonly end: number | undefined } | undefined;
  #offset = 0;
  #continued = false;

  constructor(readonly harness: Harness) {}

  /**
   * Call with each line before mapping it: the continuation to write ahead of this line's events
   * when it is the first record the harness wrote after the export (once per file), else undefined.
   */
  before(line: SourceLine): ContinuedFrom | undefined {
    const start = this.#offset;
    if (line.line === 1) {
      const read = exportMarkerOfLine(line.text);
      const first = Buffer.byteLength(line.text) + 1;
      this.#offset = first;
      if (read !== undefined)
        this.#marker = {
          origin: read.origin,
          cut: read.cut,
          end: read.bytes === undefined ? undefined : first + read.bytes,
        };
      return undefined;
    }
    const marker = this.#marker;
    if (marker === undefined || this.#continued || marker.end === undefined) return undefined;
    this.#offset += Buffer.byteLength(line.text) + 1;
    if (start < marker.end || line.text.trim() === '') return undefined;
    this.#continued = true;
    return { session: marker.origin, cut: marker.cut, harness: this.harness };
  }

  /** The facts for `MappedFile.strandExport`, when the file's first line carries the marker. */
  facts(): { readonly strandExport?: ExportFacts } {
    const marker = this.#marker;
    if (marker === undefined) return {};
    return { strandExport: { origin: marker.origin, cut: marker.cut, continued: this.#continued } };
  }
}

/**
 * The reason a mapped file is not imported, or undefined to import it: a file still exactly
 * Strand's export of a stored session (`skipped: Strand's export of <origin>`). An export whose
 * origin is not stored (the file moved to another machine) imports as any transcript. Reads the
 * file again only for a file whose first line carries the marker and that was not continued.
 */
export async function exportSkipReason(
  file: string,
  mapped: MappedFile,
  stored: ReadonlySet<string>,
): Promise<string | undefined> {
  if (mapped.kind !== 'sessions') return undefined;
  const facts = mapped.strandExport;
  if (facts === undefined || facts.continued || !stored.has(facts.origin)) return undefined;
  const text = await fsp.readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined || readExportMarker(text)?.untouched !== true) return undefined;
  return `Strand's export of ${facts.origin}`;
}
