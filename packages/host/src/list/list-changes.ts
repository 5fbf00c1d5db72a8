import { listHarnessOf, listParentOf, listProjectNameOf } from '@strand/projection-cache';
import type { SessionHeader, SessionId } from '@strand/session';
import type { Outbound } from '../follow/outbound.js';
import { LIST_HINT_KEYS, type ServedServices } from '../services.js';
import { coalesceIds, MAX_IDS_PER_FRAME } from './coalesce-ids.js';
import type { ListFilter } from './list-filter.js';

/** One `session.listSubscribe` of one connection. */
interface ListSubscriber {
  readonly id: string;
  readonly out: Outbound;
  readonly filter: ListFilter;
  /** Changed ids not sent yet (a set: a burst names each id once). */
  readonly pending: Set<string>;
  /** Frames wait until the subscribe result is on the wire. */
  opened: boolean;
}

/** Runs the flush once the current burst of synchronous changes is over. */
export type FlushScheduler = (flush: () => void) => void;

const onTheEventLoop: FlushScheduler = (flush) => setImmediate(flush);

const HINT_KEYS: ReadonlySet<string> = new Set(LIST_HINT_KEYS);

/**
 * The `list.changed` frames of every `session.listSubscribe`. A list row changes when
 * - a session attaches here or detaches (created, promoted, settled: `live` changes) — the store's
 *   change, which comes after the session's header (and, on detach, its last events) is durable;
 * - a list hint of a live session changes (renamed, prompted: `title`, `listMetadata`) — the
 *   registry folds durable batches only;
 * - its agent turns busy or idle (`busy` is the host's fact, told as it changes);
 * - the projection cache writes or drops its list row (imports, deletes, hint folds, cache writes)
 *   — told after the write returned.
 * So no frame names a change a failed write could take back. Ids pile up per subscriber in a set
 * and go out once the burst's synchronous work is done (one flush per turn of the event loop, in
 * frames of at most `MAX_IDS_PER_FRAME` distinct ids): a turn of many events costs one frame.
 *
 * A subscription's filter narrows by header facts only (`cwd`, `projectName`, `harness`, `parent`), and only when
 * the change came with the header: a drop carries none, and a row may enter or leave `busy` and
 * `titlePrefix` with the very change told.
 */
export class ListChangeFeed {
  readonly #subscribers = new Map<string, ListSubscriber>();
  readonly #disposers: (() => void)[] = [];
  readonly #schedule: FlushScheduler;
  readonly #maxIdsPerFrame: number;
  #scheduled = false;
  #nextId = 0;

  constructor(
    services: ServedServices,
    options: { readonly schedule?: FlushScheduler; readonly maxIdsPerFrame?: number } = {},
  ) {
    this.#schedule = options.schedule ?? onTheEventLoop;
    this.#maxIdsPerFrame = options.maxIdsPerFrame ?? MAX_IDS_PER_FRAME;
    this.#disposers.push(
      services.store.subscribe((change) => this.#changed(change.session.id, change.session.header)),
      services.registry.onChanged((sessionId, key) => {
        if (HINT_KEYS.has(key)) this.#changed(sessionId, services.store.get(sessionId)?.header);
      }),
    );
    const agents = services.agents;
    if (agents !== undefined)
      this.#disposers.push(agents.onBusyChange((id) => this.#changed(id, services.store.get(id)?.header)));
    const cache = services.cache;
    if (cache !== undefined)
      this.#disposers.push(cache.onListChanged((id, header) => this.#changed(id, header)));
  }

  get subscriberCount(): number {
    return this.#subscribers.size;
  }

  /** A new subscription on `out`; its frames are held until `open(id)`. */
  subscribe(filter: ListFilter, out: Outbound): string {
    const id = `l${++this.#nextId}`;
    this.#subscribers.set(id, { id, out, filter, pending: new Set(), opened: false });
    return id;
  }

  /** The subscribe result is on the wire: frames may follow. */
  open(id: string): void {
    const subscriber = this.#subscribers.get(id);
    if (subscriber === undefined || subscriber.opened) return;
    subscriber.opened = true;
    if (subscriber.pending.size > 0) this.#scheduleFlush();
  }

  /** Ends a subscription of this connection; false when it has none by that id. */
  unsubscribe(id: string, out: Outbound): boolean {
    const subscriber = this.#subscribers.get(id);
    if (subscriber?.out !== out) return false;
    this.#subscribers.delete(id);
    return true;
  }

  /** The connection closed: its subscriptions end. */
  dropConnection(out: Outbound): void {
    for (const subscriber of [...this.#subscribers.values()])
      if (subscriber.out === out) this.#subscribers.delete(subscriber.id);
  }

  close(): void {
    for (const dispose of this.#disposers.splice(0)) dispose();
    this.#subscribers.clear();
  }

  #changed(sessionId: SessionId | string, header: SessionHeader | undefined): void {
    if (this.#subscribers.size === 0) return;
    for (const subscriber of this.#subscribers.values())
      if (header === undefined || mayConcern(subscriber.filter, header)) subscriber.pending.add(sessionId);
    this.#scheduleFlush();
  }

  #scheduleFlush(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    this.#schedule(() => {
      this.#scheduled = false;
      this.#flush();
    });
  }

  #flush(): void {
    for (const subscriber of this.#subscribers.values()) {
      if (!subscriber.opened || subscriber.pending.size === 0) continue;
      const frames = coalesceIds(subscriber.pending, this.#maxIdsPerFrame);
      subscriber.pending.clear();
      if (!subscriber.out.open) continue;
      for (const ids of frames)
        subscriber.out.send(
          JSON.stringify({
            jsonrpc: '2.0',
            method: 'list.changed',
            params: { subscriptionId: subscriber.id, ids },
          }),
        );
    }
  }
}

/** Whether a row with this header can be in the filter's list: header facts only (they never change). */
export function mayConcern(filter: ListFilter, header: SessionHeader): boolean {
  if (filter.cwd !== undefined && header.cwd !== filter.cwd) return false;
  if (filter.projectName !== undefined && listProjectNameOf(header.cwd) !== filter.projectName) return false;
  if (filter.harness !== undefined && listHarnessOf(header) !== filter.harness) return false;
  if (filter.parent !== undefined && listParentOf(header) !== filter.parent) return false;
  return true;
}
