import type { ProjectionBaseline, ProjectionHints } from '@strand/protocol';
import {
  mergeBaseline,
  mergeFrame,
  mergeHints,
  type MergeResult,
  type ProjectionFrameInput,
  type ProjectionRows,
} from './merge.js';
import { assertNever } from '../assert-never.js';
import { KeyedListeners, reportToConsole, type ListenerErrorReporter } from '../listeners.js';

/** What one store input did, per session. Subscribers hear only about `changed`. */
export type StoreResult =
  | { readonly kind: 'changed'; readonly keys: readonly string[] }
  | { readonly kind: 'advanced' }
  | { readonly kind: 'ignored' }
  | { readonly kind: 'invalid'; readonly reason: string };

/** `known: false` covers both "never heard of" and "cleared by a baseline (capability absent)". */
export type ProjectionLookup =
  | { readonly known: false }
  | { readonly known: true; readonly value: unknown; readonly seq: number };

export interface ProjectionChange {
  readonly sessionId: string;
  readonly keys: readonly string[];
}

export type ProjectionListener = (change: ProjectionChange) => void;

const EMPTY: ProjectionRows = new Map();
const UNKNOWN: ProjectionLookup = Object.freeze({ known: false });

/**
 * The per-session client projection store: the list view and every opened session share one
 * instance, so hints fill rows before a follow and the follow's baseline and frames converge them.
 * Each session's rows are an immutable map replaced on change, so `rows(sessionId)` is a stable
 * reference between changes (fit for `useSyncExternalStore`-style consumers).
 */
export class ProjectionStore {
  private readonly sessions = new Map<string, ProjectionRows>();
  private readonly listeners: KeyedListeners<ProjectionChange>;

  constructor(reportListenerError: ListenerErrorReporter = reportToConsole) {
    this.listeners = new KeyedListeners(reportListenerError);
  }

  applyHints(sessionId: string, hints: ProjectionHints): StoreResult {
    return this.commit(sessionId, mergeHints(this.rows(sessionId), hints));
  }

  applyBaseline(sessionId: string, baseline: ProjectionBaseline): StoreResult {
    return this.commit(sessionId, mergeBaseline(this.rows(sessionId), baseline));
  }

  applyFrame(sessionId: string, frame: ProjectionFrameInput): StoreResult {
    return this.commit(sessionId, mergeFrame(this.rows(sessionId), frame));
  }

  get(sessionId: string, key: string): ProjectionLookup {
    const row = this.sessions.get(sessionId)?.get(key);
    return row === undefined ? UNKNOWN : { known: true, value: row.value, seq: row.seq };
  }

  rows(sessionId: string): ProjectionRows {
    return this.sessions.get(sessionId) ?? EMPTY;
  }

  /**
   * Forgets a session's rows. Only for a session that no longer exists as the rows knew it (deleted,
   * or recreated under the same id — whose seqs restart, so higher-seq-wins would keep stale rows).
   */
  forget(sessionId: string): StoreResult {
    const rows = this.sessions.get(sessionId);
    if (rows === undefined || rows.size === 0) return { kind: 'ignored' };
    this.sessions.delete(sessionId);
    const keys = [...rows.keys()];
    this.notify({ sessionId, keys });
    return { kind: 'changed', keys };
  }

  /** Calls `listener` after each input that changed a value of `sessionId`. Returns the unsubscribe. */
  subscribe(sessionId: string, listener: ProjectionListener): () => void {
    return this.listeners.subscribe(sessionId, listener);
  }

  private commit(sessionId: string, result: MergeResult): StoreResult {
    switch (result.kind) {
      case 'changed':
        this.sessions.set(sessionId, result.rows);
        this.notify({ sessionId, keys: result.keys });
        return { kind: 'changed', keys: result.keys };
      case 'advanced':
        this.sessions.set(sessionId, result.rows);
        return { kind: 'advanced' };
      case 'ignored':
      case 'invalid':
        return result;
      default:
        return assertNever(result, 'merge result');
    }
  }

  private notify(change: ProjectionChange): void {
    this.listeners.emit(change.sessionId, change);
  }
}
