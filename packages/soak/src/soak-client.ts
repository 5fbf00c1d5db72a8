import { StrandConnection, isStrandClientError } from '@strand/client';
import {
  StrandRpcError,
  type MethodName,
  type ParamsOf,
  type ResultOf,
  type WireEvent,
} from '@strand/protocol';
import { WebSocket } from 'ws';
import { contentHash, type Acknowledged, type Ledger } from './ledger.js';
import type { Prng } from './prng.js';

/** The sessions the clients share: the ones created at the start, and forks as they are made. */
export interface SessionPool {
  readonly ids: string[];
  /** Forks stop joining the pool beyond this many sessions. */
  readonly max: number;
}

/** What one soak client does, weighted (prompts dominate, as in real use). */
const OPERATIONS = [
  ['prompt', 24],
  ['rename', 10],
  ['select', 8],
  ['cancel', 6],
  ['fork', 4],
  ['follow', 10],
  ['page', 10],
  ['reconnect', 3],
  ['search', 8],
  ['list', 5],
] as const;
type Operation = (typeof OPERATIONS)[number][0];
const TOTAL_WEIGHT = OPERATIONS.reduce((sum, [, weight]) => sum + weight, 0);

const WORDS = [
  'amber',
  'basalt',
  'cedar',
  'delta',
  'ember',
  'fjord',
  'granite',
  'harbor',
  'indigo',
  'juniper',
];
/** Follows one client keeps at most; the oldest is dropped for a new one. */
const MAX_FOLLOWS = 3;
/** A fast reconnect: the host restarts within a second or two of a kill. */
const BACKOFF = { initialMs: 50, maxMs: 1000, jitter: 0.5 };

/** Counts of one client's requests: answered (a result or a refusal) and cut by a lost socket. */
export interface ClientCounts {
  answered: number;
  interrupted: number;
}

/**
 * One of the soak's clients: a `StrandConnection` (reconnect with backoff, from `@strand/client`)
 * that runs random operations on the shared sessions and records in the ledger every acknowledged
 * write, every delivered event and every refusal. Its choices come from its own PRNG stream.
 */
export class SoakClient {
  #connection: StrandConnection;
  #stopConnection: () => void;
  /** Live follows by `<epoch>:<followId>`: follow ids are scoped to one socket. */
  readonly #follows = new Map<string, string>();
  #prompts = 0;
  readonly counts: ClientCounts = { answered: 0, interrupted: 0 };

  constructor(
    readonly index: number,
    private readonly url: string,
    private readonly prng: Prng,
    private readonly pool: SessionPool,
    private readonly ledger: Ledger,
  ) {
    [this.#connection, this.#stopConnection] = this.#connect();
  }

  #connect(): [StrandConnection, () => void] {
    const connection = new StrandConnection({
      url: this.url,
      WebSocket: WebSocket,
      backoff: BACKOFF,
      random: () => this.prng.next(),
      reportListenerError: () => undefined,
    });
    const stop = connection.onNotification(({ method, params, epoch }) => {
      if (method !== 'follow.events' && method !== 'follow.resync') return;
      const frame = params as { followId: string; events?: WireEvent[] };
      const key = `${epoch}:${frame.followId}`;
      const session = this.#follows.get(key);
      if (session === undefined) return;
      if (method === 'follow.resync') this.#follows.delete(key);
      else this.#deliver(session, frame.events ?? []);
    });
    return [connection, stop];
  }

  /** Records an acknowledged write: by this client, when its answer arrived. */
  #acknowledge(ack: Omit<Acknowledged, 'client' | 'at'>): void {
    this.ledger.acknowledged.push({ ...ack, client: this.index, at: Date.now() });
  }

  #deliver(session: string, events: readonly WireEvent[]): void {
    for (const event of events)
      this.ledger.delivered.push({ session, seq: event.seq, hash: contentHash(event), client: this.index });
  }

  /** Runs operations until `running()` says stop. */
  async run(running: () => boolean): Promise<void> {
    while (running()) await this.step(this.#pick());
  }

  close(): void {
    this.#stopConnection();
    this.#connection.close();
  }

  #pick(): Operation {
    let roll = this.prng.int(0, TOTAL_WEIGHT - 1);
    for (const [operation, weight] of OPERATIONS) {
      if (roll < weight) return operation;
      roll -= weight;
    }
    return 'prompt';
  }

  /** Calls `method`; a refusal is recorded, a call cut by a lost socket is counted; either gives undefined. */
  async #call<M extends MethodName>(method: M, params: ParamsOf<M>): Promise<ResultOf<M> | undefined> {
    try {
      const result = await this.#connection.call(method, params);
      this.counts.answered++;
      return result;
    } catch (error) {
      if (error instanceof StrandRpcError) {
        this.counts.answered++;
        this.ledger.refusals.push({ method, code: error.code, message: error.message });
      } else if (isStrandClientError(error)) this.counts.interrupted++;
      else throw error;
      return undefined;
    }
  }

  async step(operation: Operation): Promise<void> {
    const id = this.prng.pick(this.pool.ids);
    switch (operation) {
      case 'prompt': {
        const text = `soak c${this.index}p${++this.#prompts} ${this.prng.pick(WORDS)} ${this.prng.pick(WORDS)}`;
        const accepted = await this.#call('session.prompt', { id, text });
        if (accepted !== undefined) this.#acknowledge({ session: id, method: 'session.prompt', text });
        return;
      }
      case 'rename': {
        const title = `${this.prng.pick(WORDS)} ${this.prng.int(0, 999)}`;
        const renamed = await this.#call('session.rename', { id, title });
        if (renamed !== undefined)
          this.#acknowledge({
            session: id,
            seq: renamed.seq,
            method: 'session.rename',
            data: { title },
          });
        return;
      }
      case 'select': {
        const selected =
          this.prng.int(0, 1) === 0
            ? await this.#call('session.selectModel', { id, provider: 'strand', model: 'scripted' })
            : await this.#call('session.selectPreset', { id, preset: null });
        if (selected !== undefined)
          this.#acknowledge({ session: id, seq: selected.seq, method: 'session.select' });
        return;
      }
      case 'cancel':
        await this.#call('session.cancel', { id });
        return;
      case 'fork': {
        // At the log's end: a closed-turn boundary when the session is idle (refused otherwise).
        const page = await this.#call('session.page', { id, limit: 1 });
        if (page === undefined) return;
        this.#deliver(id, page.events);
        const forked = await this.#call('session.fork', { id, atSeq: page.cursor });
        if (forked === undefined) return;
        this.#acknowledge({ session: forked.id, method: 'session.fork' });
        if (this.pool.ids.length < this.pool.max) this.pool.ids.push(forked.id);
        return;
      }
      case 'follow': {
        const epoch = this.#connection.epoch;
        const snapshot = await this.#call('session.follow', {
          id,
          interactive: this.prng.int(0, 1) === 1,
          window: this.prng.int(0, 40),
        });
        if (snapshot === undefined) return;
        this.#deliver(id, snapshot.events);
        // A snapshot that arrived on a socket already replaced has no live follow any more.
        if (this.#connection.epoch !== epoch) return;
        this.#follows.set(`${epoch}:${snapshot.followId}`, id);
        if (this.#follows.size > MAX_FOLLOWS) {
          const [oldest] = this.#follows.keys();
          this.#follows.delete(oldest!);
          const [oldEpoch, followId] = oldest!.split(/:(.*)/s) as [string, string];
          if (Number(oldEpoch) === this.#connection.epoch) await this.#call('session.unfollow', { followId });
        }
        return;
      }
      case 'page': {
        const window = this.prng.int(1, 30);
        const page = await this.#call('session.page', { id, limit: window });
        if (page === undefined) return;
        this.#deliver(id, page.events);
        if (page.firstSeq > 0) {
          const older = await this.#call('session.page', { id, beforeSeq: page.firstSeq, limit: window });
          if (older !== undefined) this.#deliver(id, older.events);
        }
        return;
      }
      case 'reconnect':
        // A client that goes away and comes back: a new connection, its follows gone with the old one.
        this.close();
        this.#follows.clear();
        [this.#connection, this.#stopConnection] = this.#connect();
        return;
      case 'search':
        await this.#call('session.search', { query: this.prng.pick(WORDS), limit: this.prng.int(1, 20) });
        return;
      case 'list':
        await this.#call('session.list', { limit: this.prng.int(1, 50) });
        return;
      default:
        return operation satisfies never;
    }
  }
}
