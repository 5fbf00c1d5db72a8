import { persistenceWriter, type SessionPersistence, type StoredLog } from '@strand/persistence';
import {
  Session,
  SessionError,
  SessionLogOffset,
  newSessionHeader,
  planFork,
  type SessionEvent,
  type SessionEventInput,
  type SessionHeader,
  type SessionId,
  defined,
} from '@strand/session';
import type { SessionPlan } from '../mapping/session-plan.js';
import type { SessionOutcome } from '../types.js';
import { headersEqual, isPrefixOf } from './compare-log.js';

export interface WriteTarget {
  readonly persistence: SessionPersistence;
  /** Ids known to be stored; kept current by `writePlan`. */
  readonly stored: Set<string>;
  /**
   * Appends the events a stored session is missing. Live ingest sets it to append through the
   * host's live store, so followers of the session receive them; without it they are appended
   * through the persistence directly (a one-shot import, with no followers).
   */
  readonly appendMissing?: (log: StoredLog, suffix: readonly SessionEventInput[]) => Promise<void>;
}

export interface WriteResult {
  readonly outcome: SessionOutcome;
  /** Events the stored log holds for this plan afterwards. */
  readonly events: number;
  /** A fork written unseeded because its parent is not stored (yet). */
  readonly awaitingParent?: SessionId;
  /** Why a fork whose parent is stored could not be seeded from it. */
  readonly seedProblem?: string;
  /**
   * The whole log as it now stands, when this write created or extended it through a `Session`
   * here (not through `appendMissing`): what a session digest (`session-digest.ts`) folds, without
   * reading the log back.
   */
  readonly written?: WrittenSession;
}

/** A session's log as an import wrote it: every event, acknowledged by the persistence. */
export interface WrittenSession {
  readonly header: SessionHeader;
  readonly events: readonly SessionEvent[];
  readonly inheritedEventCount: SessionLogOffset;
  readonly incarnation: string;
}

interface Resolved {
  readonly header: SessionHeader;
  readonly inherited: readonly SessionEvent[];
  readonly own: readonly SessionEventInput[];
  readonly awaitingParent?: SessionId;
  readonly seedProblem?: string;
}

/**
 * Brings the stored session in line with a plan, never rewriting a log in place:
 * - not stored: created (`imported`);
 * - stored, and its header and events are a prefix of the plan: only the missing events are
 *   appended (`appended`, or `unchanged` when none are missing);
 * - stored but diverged: deleted and created again, a new incarnation (`replaced`). The plan is
 *   validated in memory first, so a plan the session package refuses never costs the old log.
 * Every append goes through a real `Session` whose writer is the persistence, so the session
 * package validates each event exactly as it would for a live agent.
 */
export async function writePlan(target: WriteTarget, plan: SessionPlan): Promise<WriteResult> {
  const { persistence, stored } = target;
  const resolved = await resolveFork(target, plan);
  const id = resolved.header.id;
  const total = resolved.inherited.length + resolved.own.length;
  const extra = {
    ...defined({ awaitingParent: resolved.awaitingParent, seedProblem: resolved.seedProblem }),
  };
  if (!stored.has(id)) {
    const written = await create(persistence, plan, resolved);
    stored.add(id);
    return { outcome: 'imported', events: total, ...extra, written };
  }
  const log = await persistence.inspect(id);
  if (continues(log, resolved)) {
    const suffix = resolved.own.slice(log.events.length - resolved.inherited.length);
    if (suffix.length === 0) return { outcome: 'unchanged', events: total, ...extra };
    await putAttachments(persistence, id, plan);
    if (target.appendMissing !== undefined) {
      await target.appendMissing(log, suffix);
      return { outcome: 'appended', events: total, ...extra };
    }
    const session = new Session({
      header: log.header,
      events: log.events,
      inheritedEventCount: log.inheritedEventCount,
      incarnation: log.incarnation,
      writer: persistenceWriter(persistence, id),
    });
    await session.append(suffix);
    return { outcome: 'appended', events: total, ...extra, written: writtenOf(session, log.incarnation) };
  }
  // Refuse a bad plan before the old log is gone.
  await new Session({
    header: resolved.header,
    events: resolved.inherited,
    inheritedEventCount: SessionLogOffset(resolved.inherited.length),
  }).append(resolved.own);
  await persistence.delete(id);
  stored.delete(id);
  const written = await create(persistence, plan, resolved);
  stored.add(id);
  return { outcome: 'replaced', events: total, ...extra, written };
}

function continues(log: StoredLog, resolved: Resolved): boolean {
  if (!headersEqual(log.header, resolved.header) || log.inheritedEventCount !== resolved.inherited.length)
    return false;
  return isPrefixOf(log.events, resolved.inherited, resolved.own);
}

async function resolveFork(target: WriteTarget, plan: SessionPlan): Promise<Resolved> {
  const fork = plan.fork;
  const plain = (extra: { awaitingParent?: SessionId; seedProblem?: string }): Resolved => ({
    header: newSessionHeader(plan.header),
    inherited: [],
    own: plan.events,
    ...extra,
  });
  if (fork === undefined) return plain({});
  if (!target.stored.has(fork.parentId)) return plain({ awaitingParent: fork.parentId });
  const parent = await target.persistence.inspect(fork.parentId);
  const cut = fork.cutIn(parent.events);
  if (cut === undefined)
    return plain({ seedProblem: `the fork point was not found in parent ${fork.parentId}` });
  try {
    const forked = planFork(fork.parentId, parent.events, cut, plan.header);
    return { header: forked.header, inherited: forked.events, own: plan.events };
  } catch (error) {
    if (error instanceof SessionError && error.code === 'SESSION_FORK_CUT_INVALID')
      return plain({ seedProblem: error.message });
    throw error;
  }
}

/** The log a `Session` holds once its writes were acknowledged. */
function writtenOf(session: Session, incarnation: string): WrittenSession {
  return {
    header: session.header,
    events: session.events,
    inheritedEventCount: session.inheritedEventCount,
    incarnation,
  };
}

async function create(
  persistence: SessionPersistence,
  plan: SessionPlan,
  resolved: Resolved,
): Promise<WrittenSession> {
  const id = resolved.header.id;
  const { incarnation } = await persistence.create({
    header: resolved.header,
    ...(resolved.inherited.length > 0 ? { inheritedEvents: resolved.inherited } : {}),
  });
  try {
    await putAttachments(persistence, id, plan);
    const session = new Session({
      header: resolved.header,
      events: resolved.inherited,
      inheritedEventCount: SessionLogOffset(resolved.inherited.length),
      incarnation,
      writer: persistenceWriter(persistence, id),
    });
    // One batch: one durable write (one frame, one fsync) for the whole transcript.
    await session.append(resolved.own);
    return writtenOf(session, incarnation);
  } catch (error) {
    // Leave no half-created session behind: a pending create or a log without its events.
    await persistence.delete(id).catch(() => undefined);
    throw error;
  }
}

async function putAttachments(
  persistence: SessionPersistence,
  id: SessionId,
  plan: SessionPlan,
): Promise<void> {
  for (const attachment of plan.attachments.values()) await persistence.putAttachment(id, attachment);
}
