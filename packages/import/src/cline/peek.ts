import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { SessionId } from '@strand/session';
import type { Peek, SourceUnit } from '../run/harness-importer.js';
import { isRecord, str } from '../source/json-record.js';
import { TASK_FILES } from './discover.js';

/** The two harnesses that keep Cline's task folders (Roo Code is a fork of Cline). */
export type TaskHarness = 'cline' | 'roo';

export interface TaskFacts {
  readonly taskId: string;
  /**
   * `sdk`: a session of Cline's SDK (CLI 3.x): `{ version, sessionId, origin, messages }` in
   * `<id>.messages.json`. Absent: a classic task folder.
   */
  readonly format?: 'sdk';
  /** Roo Code's subtask: the task that delegated it (`history_item.json`'s `parentTaskId`). */
  readonly parentTaskId?: string;
}

export function taskSessionId(harness: TaskHarness, taskId: string): SessionId {
  return SessionId(`${harness}-${taskId}`);
}

/**
 * An API history is recognised by content: a JSON array of `{ role, content }` messages. The task
 * id is its folder's name (Cline and Roo Code name the folder after it, and nothing in the file
 * repeats it).
 */
export async function peekTask(harness: TaskHarness, unit: SourceUnit): Promise<Peek> {
  const text = await fsp.readFile(unit.file, 'utf8');
  const taskId = path.basename(path.dirname(unit.file));
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    // Rewritten whole on every save: a crash mid-write leaves it unparseable; the map step
    // reports it as failed (and the next save repairs it).
    if (/^\s*\{/.test(text) && /"sessionId"\s*:/.test(text.slice(0, 4096)) && /"messages"/.test(text))
      return session(
        harness,
        { taskId: /"sessionId"\s*:\s*"([^"]+)"/.exec(text)?.[1] ?? taskId, format: 'sdk' },
        unit,
      );
    return /^\s*\[/.test(text) && /"role"\s*:/.test(text.slice(0, 4096))
      ? session(harness, { taskId }, unit)
      : { kind: 'skip', reason: `not a ${label(harness)} API history (not JSON)` };
  }
  if (isRecord(raw) && Array.isArray(raw.messages) && typeof raw.sessionId === 'string')
    return sdkSession(harness, raw, unit);
  if (!Array.isArray(raw))
    return { kind: 'skip', reason: `not a ${label(harness)} API history (not an array)` };
  if (raw.length === 0) return { kind: 'skip', reason: 'empty API history (no messages yet)' };
  if (!raw.some((m) => isRecord(m) && (m.role === 'user' || m.role === 'assistant')))
    return { kind: 'skip', reason: `not a ${label(harness)} API history (no user or assistant message)` };
  const parentTaskId = await parentOf(unit);
  return session(harness, parentTaskId === undefined ? { taskId } : { taskId, parentTaskId }, unit);
}

/** An SDK session; a subagent's names its parent thread in `origin.parentThreadId`. */
function sdkSession(harness: TaskHarness, raw: Record<string, unknown>, unit: SourceUnit): Peek {
  if ((raw.messages as unknown[]).length === 0)
    return { kind: 'skip', reason: 'empty session (no messages yet)' };
  const parent = isRecord(raw.origin) ? str(raw.origin.parentThreadId) : undefined;
  const taskId = raw.sessionId as string;
  return session(
    harness,
    parent === undefined || parent === taskId
      ? { taskId, format: 'sdk' }
      : { taskId, format: 'sdk', parentTaskId: parent },
    unit,
  );
}

function session(harness: TaskHarness, facts: TaskFacts, unit: SourceUnit): Peek {
  return {
    kind: 'session',
    primaryId: taskSessionId(harness, facts.taskId),
    rank: unit.companions.length,
    depth: facts.parentTaskId === undefined ? 0 : 1,
    facts,
  };
}

/** Roo Code's history item names the parent of a subtask; Cline's files name none. */
async function parentOf(unit: SourceUnit): Promise<string | undefined> {
  const file = unit.companions.find((c) => path.basename(c) === TASK_FILES.historyItem);
  if (file === undefined) return undefined;
  try {
    const item: unknown = JSON.parse(await fsp.readFile(file, 'utf8'));
    return isRecord(item) ? str(item.parentTaskId) : undefined;
  } catch {
    // A history item cut by a crash: the task maps as a top-level one until it is written again.
    return undefined;
  }
}

export function label(harness: TaskHarness): string {
  return harness === 'cline' ? 'Cline' : 'Roo Code';
}
