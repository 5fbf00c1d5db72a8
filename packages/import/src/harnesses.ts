import { aiderImporter } from './aider/aider-importer.js';
import { claudeCodeImporter } from './claude-code/claude-importer.js';
import { codexImporter } from './codex/codex-importer.js';
import { ImportError } from './errors.js';
import { geminiImporter } from './gemini/gemini-importer.js';
import { piImporter } from './pi/pi-importer.js';
import { opencodeImporter } from './opencode/opencode-importer.js';
import { qwenImporter } from './qwen/qwen-importer.js';
import { crushImporter } from './crush/crush-importer.js';
import { copilotImporter } from './copilot/copilot-importer.js';
import { gooseImporter } from './goose/goose-importer.js';
import { openhandsImporter } from './openhands/openhands-importer.js';
import { kiloImporter } from './kilo/kilo-importer.js';
import { clineImporter } from './cline/cline-importer.js';
import { rooImporter } from './roo/roo-importer.js';
import { cursorImporter } from './cursor/cursor-importer.js';
import type { HarnessImporter } from './run/harness-importer.js';
import { IMPORT_HARNESSES, isHarness, type Harness } from './types.js';

const IMPORTERS: Readonly<Record<Harness, HarnessImporter>> = {
  'claude-code': claudeCodeImporter,
  codex: codexImporter,
  gemini: geminiImporter,
  pi: piImporter,
  aider: aiderImporter,
  opencode: opencodeImporter,
  qwen: qwenImporter,
  crush: crushImporter,
  copilot: copilotImporter,
  goose: gooseImporter,
  openhands: openhandsImporter,
  kilo: kiloImporter,
  cline: clineImporter,
  roo: rooImporter,
  cursor: cursorImporter,
};

export function importerFor(harness: string): HarnessImporter {
  if (!isHarness(harness))
    throw new ImportError(
      'IMPORT_HARNESS_UNKNOWN',
      `unknown harness "${harness}" (expected one of ${IMPORT_HARNESSES.join(', ')})`,
    );
  return IMPORTERS[harness];
}

/**
 * The folder a harness writes its transcripts to, under a home folder. Throws
 * `IMPORT_SOURCE_REQUIRED` for a harness that keeps them per project (aider): its folder must be
 * named, and guessing one (the home folder, the current one) could read a whole disk.
 */
export function defaultSourceDir(harness: Harness, home: string): string {
  const dir = importerFor(harness).defaultDir(home);
  if (dir === undefined)
    throw new ImportError(
      'IMPORT_SOURCE_REQUIRED',
      `${harness} keeps its history per project and has no default folder: name the folder to read (a project, or a folder of projects)`,
    );
  return dir;
}
