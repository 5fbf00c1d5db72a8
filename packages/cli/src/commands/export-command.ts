import { Command, Option } from 'commander';
import { readJsonExport, withAttachments, type ExportDocument } from '@strand/export';
import {
  HarnessWriteError,
  writeHarnessExport,
  writeWhole,
  type SubagentExports,
} from '@strand/import/harness-export';
import {
  EXPORT_FORMATS,
  EXPORT_HARNESSES,
  isDirectChildRow,
  StrandRpcError,
  type ExportHarnessName,
} from '@strand/protocol';
import { CLI_ERRORS } from '@strand/session/errors';
import type { StrandConnection } from '@strand/client';
import { withConnection } from '../remote.js';
import { targetOptions } from '../target-options.js';
import { failUsage } from '../usage-error.js';
import type { RemoteOptions } from '../remote.js';

/** The CLI's codes `strand export --to` throws (its part of the CLI's block). */
export const EXPORT_ERROR_CODES = [
  'CLI_EXPORT_TARGET_NOT_OURS',
] as const satisfies readonly (typeof CLI_ERRORS.codes)[number][];

/** The target file is not Strand's to replace. */
export class ExportRefusedError extends CLI_ERRORS.codeClass(
  'CLI_EXPORT_TARGET_NOT_OURS',
  'ExportRefusedError',
) {}

interface ExportOptions extends RemoteOptions {
  format?: (typeof EXPORT_FORMATS)[number];
  to?: ExportHarnessName;
  out?: string;
  home?: string;
  json?: boolean;
}

/**
 * `strand export <id> --format markdown|html|json [--out <file>]`: the session at its durable cut
 * (`session.export`), on stdout or into a file written whole or not at all.
 * `strand export <id> --to claude-code|codex|gemini [--home <dir>] [--json]`: the session as a transcript of
 * that harness, filed where its own resume finds it (the CLI fetches the JSON export and writes
 * the file on this machine). A session with a turn still running exports what was durable and
 * says so on stderr.
 */
export function exportCommand(): Command {
  return targetOptions(
    new Command('export').description(
      'write a session out as Markdown, HTML or JSON, or as a Claude Code, Codex or Gemini CLI transcript to continue it there',
    ),
  )
    .argument('<id>', 'session id')
    .addOption(
      new Option(
        '--format <format>',
        "markdown (to read or paste), html (one self-contained page) or json (Strand's own, lossless)",
      ).choices(EXPORT_FORMATS),
    )
    .addOption(
      new Option(
        '--to <harness>',
        "write a transcript in that harness's format where it resumes from",
      ).choices(EXPORT_HARNESSES),
    )
    .option(
      '--out <file>',
      'with --format: write to this file instead of stdout (replaced whole, never half-written)',
    )
    .option('--home <dir>', "with --to: the home folder to file it under (default: the harness's own)")
    .option('--json', 'with --to: print {path, resumeId, command, children} as JSON')
    .action(async (id: string, options: ExportOptions) => {
      if ((options.format === undefined) === (options.to === undefined))
        failUsage('name one of --format <format> or --to <harness>', 'strand.export.target');
      if (options.to !== undefined) {
        if (options.out !== undefined) failUsage('--out goes with --format, not --to', 'strand.export.out');
        return exportTo(id, options);
      }
      if (options.json === true) failUsage('--json goes with --to, not --format', 'strand.export.json');
      if (options.home !== undefined) failUsage('--home goes with --to, not --format', 'strand.export.home');
      const format = options.format!;
      const exported = await withConnection(options, (c) => c.call('session.export', { id, format }));
      if (options.out === undefined) process.stdout.write(exported.text);
      else await writeWhole(options.out, exported.text);
      if (exported.running) sayRunning(id, exported.lastSeq);
      if (options.out !== undefined)
        process.stderr.write(`strand: wrote ${options.out} (${Buffer.byteLength(exported.text)} bytes)\n`);
    });
}

async function exportTo(id: string, options: ExportOptions): Promise<void> {
  const { exported, document, subagents } = await withConnection(options, async (c) => {
    const exported = await c.call('session.export', { id, format: 'json' });
    // The images the log references go in with their bytes (the JSON export names them by ref).
    const document = await withAttachments(readDocument(id, exported.text), async (ref) => {
      try {
        return await c.call('session.attachment', { id, ref });
      } catch (error) {
        // A blob the store does not hold is named in the transcript instead, as HTML does.
        if (error instanceof StrandRpcError && error.code === 'PERSISTENCE_ATTACHMENT_NOT_FOUND')
          return undefined;
        throw error;
      }
    });
    return { exported, document, subagents: await readSubagents(c, id) };
  });
  // The one writer the host's `session.exportTo` uses too, here into this machine's folders.
  const written = await writeHarnessExport(options.to!, document, { home: options.home }, subagents).catch(
    (error: unknown) => {
      if (error instanceof HarnessWriteError && error.reason === 'not-ours')
        throw new ExportRefusedError(error.message, { cause: error });
      throw error;
    },
  );
  if (exported.running) sayRunning(id, exported.lastSeq);
  for (const line of written.leftOut) process.stderr.write(`strand: ${line}\n`);
  const { path, resumeId, command, children } = written;
  if (options.json === true)
    process.stdout.write(`${JSON.stringify({ path, resumeId, command, children })}\n`);
  else {
    process.stderr.write(`strand: wrote ${path}\n`);
    for (const child of children) process.stderr.write(`strand: wrote ${child}\n`);
    process.stdout.write(`${command}\n`);
  }
}

function readDocument(id: string, text: string): ExportDocument {
  const document = readJsonExport(text);
  if (document === undefined) throw new Error(`the host's JSON export of ${id} could not be read`);
  return document;
}

/**
 * The session's subagent tree (`subagent.list`, descendants): each direct child read whole at
 * its own durable cut, and the ids of the deeper ones (a child's own subagents, which no target
 * writes) and of any the listing could not read, to name them as left out.
 */
async function readSubagents(c: StrandConnection, id: string): Promise<SubagentExports> {
  const { rows } = await c.call('subagent.list', { id, scope: 'descendants' }).catch((error: unknown) => {
    // A host started without a subagent catalog has no children to give: the session alone.
    if (error instanceof StrandRpcError && error.code === 'HOST_SUBAGENTS_UNAVAILABLE') return { rows: [] };
    throw error;
  });
  const children: ExportDocument[] = [];
  const others: string[] = [];
  for (const row of rows) {
    if (!isDirectChildRow(row)) {
      others.push(row.id);
      continue;
    }
    const exported = await c.call('session.export', { id: row.id, format: 'json' });
    children.push(readDocument(row.id, exported.text));
  }
  return { children, others };
}

function sayRunning(id: string, lastSeq: number): void {
  process.stderr.write(
    `strand: a turn of ${id} is still running: exported what was durable (events 0–${lastSeq})\n`,
  );
}
