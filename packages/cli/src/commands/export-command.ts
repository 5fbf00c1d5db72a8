import { open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Command, Option } from 'commander';
import { EXPORT_FORMATS } from '@strand/protocol';
import { withConnection } from '../remote.js';
import { targetOptions } from '../target-options.js';
import type { RemoteOptions } from '../remote.js';

interface ExportOptions extends RemoteOptions {
  format: (typeof EXPORT_FORMATS)[number];
  out?: string;
}

/**
 * `strand export <id> --format markdown|json [--out <file>]`: the session at its durable cut
 * (`session.export`), on stdout or into a file written whole or not at all. A session with a turn
 * still running exports what was durable and says so on stderr.
 */
export function exportCommand(): Command {
  return targetOptions(
    new Command('export').description(
      'write a session out as Markdown or JSON (its durable part, if a turn is running)',
    ),
  )
    .argument('<id>', 'session id')
    .addOption(
      new Option('--format <format>', "markdown (to read or paste) or json (Strand's own, lossless)")
        .choices(EXPORT_FORMATS)
        .makeOptionMandatory(),
    )
    .option('--out <file>', 'write to this file instead of stdout (replaced whole, never half-written)')
    .action(async (id: string, options: ExportOptions) => {
      const exported = await withConnection(options, (c) =>
        c.call('session.export', { id, format: options.format }),
      );
      if (options.out === undefined) process.stdout.write(exported.text);
      else await writeWhole(options.out, exported.text);
      if (exported.running)
        process.stderr.write(
          `strand: a turn of ${id} is still running: exported what was durable (events 0–${exported.lastSeq})\n`,
        );
      if (options.out !== undefined)
        process.stderr.write(`strand: wrote ${options.out} (${Buffer.byteLength(exported.text)} bytes)\n`);
    });
}

/**
 * Writes `text` to `file` through a temporary file beside it, synced before the rename: a reader
 * sees the old file or the new one whole, and a failure (full disk, read-only folder) leaves no
 * partial file behind.
 */
async function writeWhole(file: string, text: string): Promise<void> {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.strand-tmp`);
  try {
    const handle = await open(temp, 'w');
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw new Error(`could not write ${file}: ${(error as Error).message}`, { cause: error });
  }
}
