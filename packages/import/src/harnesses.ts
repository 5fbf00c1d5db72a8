import { claudeCodeImporter } from './claude-code/claude-importer.js';
import { codexImporter } from './codex/codex-importer.js';
import { ImportError } from './errors.js';
import { geminiImporter } from './gemini/gemini-importer.js';
import { qwenImporter } from './qwen/qwen-importer.js';
import type { HarnessImporter } from './run/harness-importer.js';
import { IMPORT_HARNESSES, isHarness, type Harness } from './types.js';

const IMPORTERS: Readonly<Record<Harness, HarnessImporter>> = {
  'claude-code': claudeCodeImporter,
  codex: codexImporter,
  gemini: geminiImporter,
  qwen: qwenImporter,
};

export function importerFor(harness: string): HarnessImporter {
  if (!isHarness(harness))
    throw new ImportError(
      'IMPORT_HARNESS_UNKNOWN',
      `unknown harness "${harness}" (expected ${IMPORT_HARNESSES.join(', ')})`,
    );
  return IMPORTERS[harness];
}

/** The folder a harness writes its transcripts to, under a home folder. */
export function defaultSourceDir(harness: Harness, home: string): string {
  return importerFor(harness).defaultDir(home);
}
