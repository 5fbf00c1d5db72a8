import os from 'node:os';
import path from 'node:path';
import { ImportError } from '../errors.js';
import { defaultSourceDir } from '../harnesses.js';
import { IMPORT_HARNESSES, isHarness } from '../types.js';
import type { WatchSpec } from './live-ingest.js';

/**
 * Parses a `--watch` value: `<harness>:<dir>`, or `<harness>` alone for the harness's usual home
 * (`~/.claude/projects`, `~/.codex/sessions`, `~/.gemini/tmp`). Refuses an unknown harness with
 * `IMPORT_HARNESS_UNKNOWN`.
 */
export function parseWatchSpec(value: string, home: string = os.homedir()): WatchSpec {
  const colon = value.indexOf(':');
  const name = colon < 0 ? value : value.slice(0, colon);
  const dir = colon < 0 ? '' : value.slice(colon + 1);
  if (!isHarness(name))
    throw new ImportError(
      'IMPORT_HARNESS_UNKNOWN',
      `--watch ${value}: unknown harness "${name}" (expected ${IMPORT_HARNESSES.join(', ')})`,
    );
  return { harness: name, dir: dir === '' ? defaultSourceDir(name, home) : path.resolve(dir) };
}
