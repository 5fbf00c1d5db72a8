import type { SessionPersistence } from '@strand/persistence';
import type { CheckpointRows, ProjectionRegistry } from '@strand/projection';
import type { ProjectionCache } from '@strand/projection-cache';
import { SessionLogOffset, SessionSeq, type SessionEvent, type SessionHeader } from '@strand/session';
import type { AppendSignal, CoordinationPort } from '../ports.js';

/** What the follow hub gives a remote tail: where its followers are and how to reach them. */
export interface RemoteTailSink {
  /** The lowest next seq among the session's followers; undefined when there are none. */
  nextSeq(): number | undefined;
  /** False once the session is live here (the local path delivers) or the fanout is gone. */
  active(): boolean;
  events(batch: readonly SessionEvent[]): void;
  projection(key: string, value: unknown, seq: number): void;
  resync(reason: string): void;
}

export interface RemoteTailDeps {
  readonly persistence: Pick<SessionPersistence, 'readFrom'>;
  readonly registry: Pick<ProjectionRegistry, 'restore'>;
  readonly cache?:
    | (Pick<ProjectionCache, 'cachedStates'> & Partial<Pick<ProjectionCache, 'prefetch'>>)
    | undefined;
  readonly coordination: Pick<CoordinationPort, 'watchAppends'>;
}

/** The stored session a tail follows (a different incarnation is another log). */
export interface RemoteIdentity {
  readonly header: SessionHeader;
  readonly incarnation: string | undefined;
  readonly inheritedEventCount: SessionLogOffset;
}

/**
 * Follows a session that is not live here while other hosts append to it. Each announcement (or
 * `resync`, after the feed's connection dropped) makes one `readFrom(lowest next seq)`; reads are
 * serialized and coalesced, so a burst of announcements costs one read per round. The events go
 * out through the hub's ordinary event path (same frames, same seq checks). Projection frames
 * come from folding the read suffix with the registry's restore algebra, seeded once from the
 * projection cache's state rows (or from 0), and are sent only for values that changed.
 */
export class RemoteTail {
  readonly #deps: RemoteTailDeps;
  readonly #identity: RemoteIdentity;
  readonly #sink: RemoteTailSink;
  readonly #reportError: (error: unknown) => void;
  readonly #unwatch: () => void;
  /** JSON of the values the followers already have, by key. */
  readonly #values: Map<string, string>;
  #fold: { rows: CheckpointRows; cut: number } | undefined;
  #foldFailed = false;
  #reading = false;
  #again = false;
  #closed = false;

  constructor(
    deps: RemoteTailDeps,
    identity: RemoteIdentity,
    knownValues: Readonly<Record<string, unknown>> | undefined,
    sink: RemoteTailSink,
    reportError: (error: unknown) => void,
  ) {
    this.#deps = deps;
    this.#identity = identity;
    this.#sink = sink;
    this.#reportError = reportError;
    this.#values = new Map(
      Object.entries(knownValues ?? {}).map(([key, value]) => [key, JSON.stringify(value) ?? 'null']),
    );
    this.#unwatch = deps.coordination.watchAppends(identity.header.id, (signal) => this.#signal(signal));
  }

  /** Reads whatever the followers are missing (a catch-up after subscribing, or on demand). */
  pull(): void {
    if (this.#closed) return;
    if (this.#reading) {
      this.#again = true;
      return;
    }
    this.#reading = true;
    void this.#drain().finally(() => (this.#reading = false));
  }

  close(): void {
    this.#closed = true;
    this.#unwatch();
  }

  #signal(signal: AppendSignal): void {
    if (signal.kind === 'append') {
      const { incarnation } = this.#identity;
      if (incarnation !== undefined && signal.incarnation !== incarnation) return this.#resync('incarnation');
      // Already delivered and folded (e.g. this host's own write, which the local path sent).
      const end = signal.from + signal.count;
      const next = this.#sink.nextSeq();
      if (next !== undefined && end <= next && (this.#fold === undefined || this.#fold.cut >= end)) return;
    }
    this.pull();
  }

  async #drain(): Promise<void> {
    do {
      this.#again = false;
      try {
        await this.#readOnce();
      } catch (error) {
        // A failed read leaves the followers where they are; the next announcement retries.
        this.#reportError(error);
      }
    } while (this.#again && !this.#closed);
  }

  async #readOnce(): Promise<void> {
    // Before anything is read from the sink: the wait must not leave `next` behind it.
    if (!this.#foldFailed && this.#fold === undefined) await this.#prefetchSeed();
    const next = this.#sink.nextSeq();
    if (next === undefined || !this.#sink.active()) return;
    const fold = this.#foldFailed ? undefined : (this.#fold ?? this.#seedFold());
    const from = Math.min(next, fold?.cut ?? next);
    const suffix = await this.#deps.persistence.readFrom(this.#identity.header.id, SessionSeq(from));
    if (this.#closed || !this.#sink.active()) return;
    const { incarnation } = this.#identity;
    if (incarnation !== undefined && suffix.incarnation !== incarnation) return this.#resync('incarnation');
    const fresh = suffix.events.slice(next - from);
    if (fresh.length > 0) this.#sink.events(fresh);
    if (fold !== undefined) this.#advance(fold, suffix.header, suffix.events.slice(fold.cut - from));
  }

  /** Readies the cache rows `#seedFold` reads synchronously (PostgreSQL's mirror loads them). */
  async #prefetchSeed(): Promise<void> {
    if (this.#identity.incarnation === undefined) return;
    try {
      await this.#deps.cache?.prefetch?.([this.#identity.header.id]);
    } catch {
      // The cache is an acceleration: rows it failed to ready are a miss (fold from 0), never a lost event.
    }
  }

  /** The fold starts from the cache's state rows when it has usable ones, else from 0. */
  #seedFold(): { rows: CheckpointRows; cut: number } {
    const { header, incarnation, inheritedEventCount } = this.#identity;
    const rows =
      incarnation === undefined || this.#deps.cache === undefined
        ? {}
        : this.#deps.cache.cachedStates({ header, incarnation }, inheritedEventCount);
    const cuts = Object.values(rows).map((row) => row.cut as number);
    return { rows, cut: cuts.length === 0 ? 0 : Math.min(...cuts) };
  }

  #advance(
    fold: { rows: CheckpointRows; cut: number },
    header: SessionHeader,
    events: readonly SessionEvent[],
  ): void {
    let result;
    try {
      result = this.#deps.registry.restore({
        header,
        inheritedEventCount: this.#identity.inheritedEventCount,
        rows: fold.rows,
        events,
        from: SessionLogOffset(fold.cut),
      });
    } catch (error) {
      // A unit failing on this log fails its cold observations too; the events still flow.
      this.#foldFailed = true;
      this.#reportError(error);
      return;
    }
    if (result.kind === 'needs-prefix') {
      // A cache row did not fit this log after all: fold from 0 on the next round.
      this.#fold = { rows: {}, cut: 0 };
      this.#again = true;
      return;
    }
    const { projection } = result;
    this.#fold = { rows: projection.rows, cut: projection.cut };
    for (const [key, value] of Object.entries(projection.snapshot.values)) {
      const json = JSON.stringify(value) ?? 'null';
      if (this.#values.get(key) === json) continue;
      this.#values.set(key, json);
      this.#sink.projection(key, value, projection.snapshot.asOfSeq);
    }
  }

  #resync(reason: string): void {
    this.close();
    this.#sink.resync(reason);
  }
}
