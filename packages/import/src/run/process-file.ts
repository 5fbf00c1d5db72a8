import { defined } from '@strand/session';
import { combineHashes } from '../ledger/stamps.js';
import { hashFile } from '../source/file-hash.js';
import type { ImportReport, SessionOutcome } from '../types.js';
import { exportSkipReason } from '../mapping/strand-export.js';
import type { WrittenSession } from '../write/write-plan.js';
import { writePlans } from '../write/write-plans.js';
import type { DataFolder } from './data-folder.js';
import type { DigestSession } from './session-digest.js';
import type { HarnessImporter, SessionPeek, SourceUnit } from './harness-importer.js';

/**
 * Everything one file's import produced, as plain data: it crosses a worker boundary (structured
 * clone) and is applied to the ledger and the tally by the coordinating thread only.
 */
export interface FileOutcome {
  readonly file: string;
  readonly skippedRecords: number;
  /** Known records left out, by type (plain data: it crosses the worker boundary). */
  readonly ignored: Readonly<Record<string, number>>;
  readonly reports: readonly ImportReport[];
  /** The mapping read every file of the unit's write-once folder whole (`MappedFile.wholeFolder`). */
  readonly wholeFolder?: boolean;
  readonly result:
    | { readonly kind: 'failed'; readonly reason: string }
    | { readonly kind: 'empty'; readonly reason: string; readonly hash: string }
    | {
        readonly kind: 'written';
        readonly hash: string;
        readonly sessions: readonly {
          readonly id: string;
          readonly events: number;
          readonly outcome: SessionOutcome;
        }[];
        readonly awaitingParent?: string;
        readonly notes: readonly string[];
        /** Subagent children written, with the parent their header names. */
        readonly children: readonly { readonly id: string; readonly parent: string }[];
        /** Set when a write failed part-way: the file counts as failed and stays out of the ledger. */
        readonly writeError?: string;
        /** The session digest of each session written, once durable (only with a digest). */
        readonly digests?: readonly unknown[];
      };
}

/** A unit of work: a changed file, what its peek said, and its companion files. */
export interface FileTask {
  readonly unit: SourceUnit;
  readonly peek: SessionPeek;
  readonly companions: readonly string[];
}

/** The outcome of a file that failed as a whole, with why. */
export function failedOutcome(task: FileTask, reason: string): FileOutcome {
  return {
    file: task.unit.file,
    skippedRecords: 0,
    ignored: {},
    reports: [],
    result: { kind: 'failed', reason },
  };
}

/**
 * Maps one file and writes its sessions; with `digest`, digests each session written once it is
 * durable. Never throws for problems of the file itself.
 */
export async function processFile(
  importer: HarnessImporter,
  task: FileTask,
  folder: DataFolder,
  digest?: DigestSession,
): Promise<FileOutcome> {
  const { file } = task.unit;
  let mapped;
  try {
    mapped = await importer.map(task.unit, task.peek);
  } catch (error) {
    return failedOutcome(task, `cannot map: ${(error as Error).message}`);
  }
  const base = {
    file,
    skippedRecords: mapped.reports.skippedRecords,
    ignored: Object.fromEntries(mapped.reports.ignored),
    reports: mapped.reports.list(),
    ...(mapped.kind !== 'failed' && mapped.wholeFolder === true ? { wholeFolder: true } : {}),
  };
  if (mapped.kind === 'failed') return { ...base, result: { kind: 'failed', reason: mapped.reason } };
  // Companions the mapping read whole come with their digests; the others are read in parallel.
  const companionHashes = await Promise.all(
    task.companions.map(
      async (companion) => mapped.companionHashes?.get(companion) ?? hashFile(companion).catch(() => ''),
    ),
  );
  const hash = combineHashes(mapped.hash, companionHashes);
  if (mapped.kind === 'empty') return { ...base, result: { kind: 'empty', reason: mapped.reason, hash } };
  // Still exactly Strand's export of a stored session: a second copy of it, not a session. (The
  // run prepared the folder before any lane maps, so its stored ids are listed.)
  const exportOf = await exportSkipReason(file, mapped, folder.stored);
  if (exportOf !== undefined) return { ...base, result: { kind: 'empty', reason: exportOf, hash } };

  const sessions: { id: string; events: number; outcome: SessionOutcome }[] = [];
  const notes: string[] = [];
  const children: { id: string; parent: string }[] = [];
  const written: WrittenSession[] = [];
  let awaitingParent: string | undefined;
  let writeError: string | undefined;
  await folder
    .write(async (target) => {
      for (const write of await writePlans(target, mapped.plans)) {
        const plan = write.plan;
        if ('error' in write) {
          writeError ??= `cannot write session ${plan.header.id}: ${write.error.message}`;
          continue;
        }
        const result = write.result;
        sessions.push({ id: plan.header.id, events: result.events, outcome: result.outcome });
        if (result.written !== undefined) written.push(result.written);
        if (result.awaitingParent !== undefined) {
          awaitingParent = result.awaitingParent;
          notes.push(
            `fork ${plan.header.id}: parent ${result.awaitingParent} is not in the data folder; imported unseeded (re-imported seeded once the parent is imported)`,
          );
        }
        if (result.seedProblem !== undefined)
          notes.push(`fork ${plan.header.id} imported unseeded: ${result.seedProblem}`);
        if (plan.header.origin === 'subagent' && plan.header.parentSession !== undefined)
          children.push({ id: plan.header.id, parent: plan.header.parentSession });
      }
    })
    .catch((error: unknown) => {
      // Closing the per-file persistence failed after the writes: the fsync of the new sessions'
      // folder (those sessions were removed: none is reported stored) or of a derived index.
      writeError ??= `cannot close the data folder: ${(error as Error).message}`;
      sessions.length = 0;
      children.length = 0;
      written.length = 0;
    });
  // Only now are the written sessions durable, names included: what a digest sees never runs ahead.
  let digests: unknown[] | undefined;
  if (digest !== undefined)
    try {
      digests = written.map((session) => digest(session));
    } catch (error) {
      writeError ??= `cannot digest the sessions written: ${(error as Error).message}`;
    }
  return {
    ...base,
    result: {
      kind: 'written',
      hash,
      sessions,
      notes,
      children,
      ...defined({ awaitingParent, writeError, digests }),
    },
  };
}
