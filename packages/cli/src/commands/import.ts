import { homedir } from 'node:os';
import path from 'node:path';
import { Argument, Command } from 'commander';
import cliProgress from 'cli-progress';
import {
  IMPORT_HARNESSES,
  defaultSourceDir,
  importTranscripts,
  isImportError,
  type Harness,
  type ImportOptions,
  type ImportReport,
  type ImportSummary,
} from '@strand/import';
import { holdDataFolder } from '../data-lock/hold-for-command.js';
import { DEFAULT_DATA_DIR } from '../defaults.js';
import { failUsage } from '../usage-error.js';
import { ImportCacheRows, type CacheRowsResult } from './import-cache-rows.js';

/** Reports printed in text mode; `--json` lists them all. */
const SHOWN_REPORTS = 20;

/**
 * `strand import <harness> [dir] [--data <dir>] [--json]` (a harness that keeps its history per project,
 * such as aider, has no default folder, so `dir` is required for it): the importer owns
 * everything about transcripts; this module only parses arguments, shows progress and prints.
 * Exit codes: 0 ok, 1 when any file failed, 2 on usage errors (including a missing folder).
 */
export function importCommand(): Command {
  return new Command('import')
    .description(
      "import another harness's transcripts as Strand sessions (re-running imports only what changed)",
    )
    .addArgument(new Argument('<harness>', 'the harness that wrote them').choices(IMPORT_HARNESSES))
    .argument('[dir]', "folder to read (default: the harness's own folder, listed below)")
    .addHelpText('after', () => defaultFoldersHelp(homedir()))
    .option('--data <dir>', 'data folder', DEFAULT_DATA_DIR)
    .option(
      '--json',
      'print one JSON object (imported, updated, unchanged, skipped, ignored, failed, reports) instead of text',
    )
    .showHelpAfterError()
    .exitOverride()
    .action(async (harness: Harness, dir: string | undefined, options: { data: string; json?: boolean }) => {
      const sourceDir = dir ?? defaultDirOrUsageError(harness);
      const bar = progressBar(options.json === true);
      let summary: ImportSummary;
      let rows: CacheRowsResult;
      const lock = await holdDataFolder(options.data, 'import');
      try {
        // Still holding the folder: no host can be writing rows of these sessions meanwhile.
        ({ summary, rows } = await importOnce({
          harness,
          sourceDir,
          dataDir: options.data,
          ...(bar === undefined ? {} : { onProgress: bar.update }),
        }));
      } catch (error) {
        bar?.stop();
        // A usage error (exit 2), but one line is enough: the arguments parsed fine.
        if (isImportError(error) && error.code === 'IMPORT_SOURCE_NOT_FOUND')
          failUsage(error.message, 'strand.import.no-source');
        throw error;
      } finally {
        await lock.release();
      }
      bar?.stop();
      // The cache only accelerates lists: a row that could not be written is worth a line, not a failure.
      for (const problem of rows.problems)
        console.error(`strand: projection cache ${problem.id}: ${problem.reason}`);
      if (options.json === true) console.log(JSON.stringify(summary));
      else printSummary(summary, harness, sourceDir, options.data);
      if (summary.failed > 0) process.exitCode = 1;
    });
}

/**
 * Each harness's default folder as this user's environment resolves it (a harness's own override,
 * such as `COPILOT_HOME`, included), from the importers themselves, so the help cannot fall behind
 * the list of harnesses.
 */
export function defaultFoldersHelp(home: string): string {
  const width = Math.max(...IMPORT_HARNESSES.map((harness) => harness.length));
  const lines = IMPORT_HARNESSES.map((harness) => {
    let folder: string;
    try {
      const dir = defaultSourceDir(harness, home);
      folder = dir === home || dir.startsWith(home + path.sep) ? `~${dir.slice(home.length)}` : dir;
    } catch {
      folder = 'none: it keeps a history per project; name a project or a folder of projects';
    }
    return `  ${harness.padEnd(width)}  ${folder}`;
  });
  return `\nDefault folders:\n${lines.join('\n')}\n`;
}

/** The harness's default folder; a usage error (exit 2) for one that has none (aider). */
function defaultDirOrUsageError(harness: Harness): string {
  try {
    return defaultSourceDir(harness, homedir());
  } catch (error) {
    if (isImportError(error) && error.code === 'IMPORT_SOURCE_REQUIRED')
      failUsage(error.message, 'strand.import.no-default-dir');
    throw error;
  }
}

/**
 * The one-shot import's work, with the data folder held by the caller: the transcripts imported,
 * and the cache rows of the sessions it created or changed written as they are (each lane folds
 * what it wrote: `import-cache-rows.ts`), so a host lists them with their titles at once
 * (`bench:ingest` measures this as the one-shot import).
 */
export async function importOnce(
  options: ImportOptions,
): Promise<{ summary: ImportSummary; rows: CacheRowsResult }> {
  const rows = new ImportCacheRows(options.dataDir);
  let summary: ImportSummary;
  try {
    summary = await importTranscripts({ ...options, digest: rows.digest });
  } catch (error) {
    // Rows of sessions already durable are worth keeping even when the run failed later.
    rows.finish();
    throw error;
  }
  return { summary, rows: rows.finish() };
}

/** The sessions an import created or changed: the ones whose cache rows are (re)written. */
export function changedSessions(summary: ImportSummary): string[] {
  return summary.sessions.filter((s) => s.outcome !== 'unchanged').map((s) => s.id);
}

/** A progress bar on stderr, only for a person watching a terminal (never with --json). */
function progressBar(
  json: boolean,
): { update: (done: number, total: number, file: string) => void; stop: () => void } | undefined {
  if (json || process.stderr.isTTY !== true) return undefined;
  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      format: 'importing [{bar}] {value}/{total} files | {file}',
      hideCursor: true,
      clearOnComplete: true,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update: (done, total, file) => {
      if (!started) {
        bar.start(total, done, { file: '' });
        started = true;
      }
      bar.update(done, { file: file === '' ? '' : shorten(path.basename(file)) });
    },
    stop: () => {
      if (started) bar.stop();
    },
  };
}

/** Every report line names the file, the line (or that the whole file is meant) and the reason. */
function printSummary(summary: ImportSummary, harness: Harness, sourceDir: string, dataDir: string): void {
  const replaced = summary.replaced > 0 ? ` (${summary.replaced} replaced)` : '';
  console.log(`${harness}: ${summary.files} files in ${sourceDir} → ${dataDir}`);
  console.log(
    `  imported ${summary.imported}, updated ${summary.updated}${replaced}, unchanged ${summary.unchanged} sessions; skipped ${summary.skipped}, failed ${summary.failed}`,
  );
  // Known records that are not conversation (a request log, context attachments): one line per type.
  const ignored = Object.entries(summary.ignored);
  if (ignored.length > 0) {
    const total = ignored.reduce((n, [, count]) => n + count, 0);
    console.log(`  left out ${total} known records that are not conversation:`);
    const width = Math.max(...ignored.map(([type]) => type.length));
    for (const [type, count] of ignored) console.log(`    ${type.padEnd(width)}  ${count}`);
  }
  const worst = [...summary.reports].sort((a, b) => rank(a) - rank(b));
  for (const report of worst.slice(0, SHOWN_REPORTS)) {
    console.log(
      `  ${report.kind.padEnd(14)} ${report.file}${report.line === null ? ' (whole file)' : `:${report.line}`}: ${report.reason}`,
    );
  }
  if (worst.length > SHOWN_REPORTS)
    console.log(`  … ${worst.length - SHOWN_REPORTS} more reports (--json lists them all)`);
}

function rank(report: ImportReport): number {
  return ['failed', 'replaced', 'skipped-file', 'skipped-record', 'note'].indexOf(report.kind);
}

function shorten(name: string): string {
  return name.length > 48 ? `…${name.slice(-47)}` : name;
}
