import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { strandExportOf } from '@strand/export';
import { HarnessWriteError } from './errors.js';
import { writeWhole } from './write-whole.js';

/** What a harness export wrote: `strand export --to --json` prints it, `session.exportTo` returns it. */
export interface HarnessExport {
  readonly path: string;
  readonly resumeId: string;
  /** `cd <cwd> && <the harness's resume command>`, each word quoted for a POSIX shell. */
  readonly command: string;
  /** The children written as the harness's own child files (Claude Code's sidechains), by path. */
  readonly children: readonly string[];
  /** What the transcript could not hold, one line per kind. */
  readonly leftOut: readonly string[];
}

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
  if (await needsWrite(file, text, origin, harness)) await writeFileWhole(file, text);
}

/**
 * Whether `file` is to be (re)written with `text`: false when it already is exactly that, true
 * when absent or still Strand's untouched export of `origin`; any other file is refused
 * (`not-ours`). Checking every file of an export before writing any leaves none half-replaced.
 */
export async function needsWrite(
  file: string,
  text: string,
  origin: string,
  harness: string,
): Promise<boolean> {
  const existing = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw new HarnessWriteError('write-failed', `could not read ${file}: ${error.message}`, { cause: error });
  });
  if (existing === text) return false;
  if (existing !== undefined && strandExportOf(existing)?.origin !== origin)
    throw new HarnessWriteError(
      'not-ours',
      `${file} is not Strand's last export of ${origin} (${harness} may have continued it): not overwritten`,
    );
  return true;
}

/** Writes `file` whole (`writeWhole`) after making its folder. */
export async function writeFileWhole(file: string, text: string): Promise<void> {
  await makeFolder(path.dirname(file));
  await writeWhole(file, text);
}

/** `mkdir -p`, a failure (a read-only home) said as one. */
export async function makeFolder(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
  } catch (error) {
    throw new HarnessWriteError('write-failed', `could not make ${dir}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}
