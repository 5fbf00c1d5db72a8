import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { strandExportOf } from '@strand/export';
import { CLI_ERRORS } from '@strand/session/errors';
import { writeWhole } from './write-whole.js';

/** What `strand export --to <harness>` wrote, as `--json` prints it. */
export interface HarnessExport {
  readonly path: string;
  readonly resumeId: string;
  readonly command: string;
  readonly children: readonly string[];
  /** What the transcript could not hold, one line per kind (stderr). */
  readonly leftOut: readonly string[];
}

/** The CLI's codes `strand export --to` throws (its part of the CLI's block). */
export const EXPORT_ERROR_CODES = [
  'CLI_EXPORT_TARGET_NOT_OURS',
] as const satisfies readonly (typeof CLI_ERRORS.codes)[number][];

/** The target file is not Strand's to replace. */
export class ExportRefusedError extends CLI_ERRORS.codeClass(
  'CLI_EXPORT_TARGET_NOT_OURS',
  'ExportRefusedError',
) {}

/**
 * Writes a harness transcript of session `origin` to `file`: the same file again if it is still
 * exactly Strand's last export of it (or absent), never one the harness has continued (`harness`
 * names it in the refusal) or that Strand did not write.
 */
export async function writeExportFile(
  file: string,
  text: string,
  origin: string,
  harness: string,
): Promise<void> {
  const existing = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (existing === text) return;
  if (existing !== undefined && strandExportOf(existing)?.origin !== origin)
    throw new ExportRefusedError(
      `${file} is not Strand's last export of ${origin} (${harness} may have continued it): not overwritten`,
    );
  await mkdir(path.dirname(file), { recursive: true });
  await writeWhole(file, text);
}
