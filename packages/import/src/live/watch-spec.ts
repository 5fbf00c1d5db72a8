import os from 'node:os';
import path from 'node:path';
import { ImportError } from '../errors.js';
import { defaultSourceDir } from '../harnesses.js';
import { IMPORT_HARNESSES, isHarness } from '../types.js';
import type { WatchSpec } from './live-ingest.js';

/**
 * Parses a `--watch` value: `<harness>:<dir>`, or `<harness>` alone for the harness's usual home
 * (`~/.claude/projects`, `~/.codex/sessions`, `~/.gemini/tmp`, `~/.pi/agent/sessions`). Refuses an unknown harness with
 * `IMPORT_HARNESS_UNKNOWN`, and `aider` alone (a history per project, no usual home) with
 * `IMPORT_SOURCE_REQUIRED`.
 */
export function parseWatchSpec(value: string, home: string = os.homedir()): WatchSpec {
  const colon = value.indexOf(':');
  const name = colon < 0 ? value : value.slice(0, colon);
  const dir = colon < 0 ? '' : value.slice(colon + 1);
  if (!isHarness(name))
    throw new ImportError(
      'IMPORT_HARNESS_UNKNOWN',
      `--watch ${value}: unknown harness "${name}" (expected one of ${IMPORT_HARNESSES.join(', ')})`,
    );
  if (dir !== '') return { harness: name, dir: path.resolve(dir) };
  try {
    return { harness: name, dir: defaultSourceDir(name, home) };
  } catch (error) {
    // A harness without a default folder (aider): the message names the value that lacks one.
    if (error instanceof ImportError && error.code === 'IMPORT_SOURCE_REQUIRED')
      throw new ImportError(
        'IMPORT_SOURCE_REQUIRED',
        `--watch ${value}: ${error.message} (--watch ${name}:<dir>)`,
      );
    throw error;
  }
}
