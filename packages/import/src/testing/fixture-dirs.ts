import {
  chmodSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openJsonlPersistence, type StoredLog } from '@strand/persistence';
import { checkLogInvariants, repairEvents, type LogViolation, type SessionEvent } from '@strand/session';

/** Test helpers: real folders in a temp dir, real JSONL persistence. Not part of the public API. */

export const PACKAGE_SRC = path.resolve(fileURLToPath(import.meta.url), '../..');
const REPO_ROOT = path.resolve(PACKAGE_SRC, '../../..');

/**
 * Real transcripts (one folder per harness) live outside the repository; a run sees them only when
 * `STRAND_REAL_FIXTURES` names their folder (relative paths from the repository root; `.ci/run`
 * sets it). Unset: `undefined`, and the real-transcript suite is skipped. Set to a folder that is
 * not there: every suite importing this module fails at once, saying so.
 */
export const REAL_FIXTURES: string | undefined = realFixtures(process.env['STRAND_REAL_FIXTURES']);

function realFixtures(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  const dir = path.resolve(REPO_ROOT, value);
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new Error(
      `STRAND_REAL_FIXTURES=${value}: no such folder (${dir}); unset it to skip the real transcripts`,
    );
  return dir;
}

/** Why the real-transcript suite did not run, for its skipped suite's name and the console. */
export const REAL_FIXTURES_SKIPPED = 'real transcripts: set STRAND_REAL_FIXTURES to run';

/**
 * One harness's real transcripts (`STRAND_REAL_FIXTURES`/`harness`), or `undefined` when the
 * variable is unset or that folder is not there: the shared folder a run sees may predate a
 * harness, and a clone with nothing beside it must pass.
 */
export function realFixtureDir(harness: string): string | undefined {
  if (REAL_FIXTURES === undefined) return undefined;
  const dir = path.join(REAL_FIXTURES, harness);
  return existsSync(dir) && statSync(dir).isDirectory() ? dir : undefined;
}

/** Why one harness's real-transcript suite did not run. */
export const realFixturesSkipped = (harness: string): string =>
  REAL_FIXTURES === undefined
    ? REAL_FIXTURES_SKIPPED
    : `real transcripts: no ${harness}/ folder in STRAND_REAL_FIXTURES`;

export interface Workspace {
  readonly root: string;
  /** A fresh source folder; fixtures are copied into it (never used in place). */
  readonly source: string;
  readonly data: string;
  dispose(): void;
}

export function workspace(prefix = 'strand-import-'): Workspace {
  const root = mkdtempSync(path.join(tmpdir(), prefix));
  return {
    root,
    source: path.join(root, 'source'),
    data: path.join(root, 'data'),
    dispose: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** Copies a file or folder into `dest`, making the copies writable (real transcripts may be read-only). */
export function copyInto(from: string, dest: string): void {
  cpSync(from, dest, { recursive: true });
  chmodTree(dest);
}

function chmodTree(target: string): void {
  if (statSync(target).isDirectory()) {
    chmodSync(target, 0o755);
    for (const name of readdirSync(target)) chmodTree(path.join(target, name));
  } else chmodSync(target, 0o644);
}

/** Every stored session, fully read. */
export async function readStore(data: string): Promise<Map<string, StoredLog>> {
  const persistence = await openJsonlPersistence({ root: data });
  try {
    const out = new Map<string, StoredLog>();
    for (const summary of await persistence.list())
      out.set(summary.header.id, await persistence.inspect(summary.header.id));
    return out;
  } finally {
    await persistence.close();
  }
}

/** sha1 of every file under `dir`, by relative path: proof that sources were not touched. */
export function snapshotTree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const full = path.join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else out.set(path.relative(dir, full), createHash('sha1').update(readFileSync(full)).digest('hex'));
    }
  };
  walk(dir);
  return out;
}

/** The `data` of events of one type, in order. */
export function dataOf<T = Record<string, unknown>>(log: StoredLog, type: string): T[] {
  return log.events.filter((e) => e.type === type).map((e) => e.data as T);
}

/**
 * The invariants of an imported log: contiguous, frozen, and every turn closed but possibly the
 * last — which the source closes when it shows its end (imported sessions are never repaired), and
 * whose crash-repair closers would complete it, so it is a well-formed open turn.
 */
export function importedLogViolations(
  events: readonly SessionEvent[],
  inheritedEventCount = 0,
): LogViolation[] {
  return checkLogInvariants([...events, ...repairEvents(events)], { inheritedEventCount, closedTurns: true });
}
