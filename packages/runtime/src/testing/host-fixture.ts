import { WebSocket } from 'ws';
import type { JsonlSessionPersistence } from '@strand/persistence';
import type { ProjectionCache } from '@strand/projection-cache';
import { openTempStack } from '@strand/stack/testing';
import { HANG_GUARD_MS, readAnswer, turn, writeStoredSession, type HttpAnswer } from '@strand/test-support';
import { silentLogger, type NewSessionHeader, type Session } from '@strand/session';
import {
  foldListHints,
  startHost,
  type HostOptions,
  type HostServices,
  type RunningHost,
} from '@strand/host';

/** A real host over the base stack in a temp folder (no agents), for the wire's integration tests. */
export interface HostFixture {
  readonly host: RunningHost;
  readonly services: HostServices & {
    readonly jsonl: JsonlSessionPersistence;
    readonly cache: ProjectionCache;
  };
  /**
   * A session written beside the host, as an import writes one: with its list row, its hints
   * folded (`'folded'`, the default) or header facts only (`'header-only'`: not folded yet).
   */
  storedSession(
    id: string,
    turns: number,
    header?: Partial<NewSessionHeader>,
    list?: 'folded' | 'header-only',
  ): Promise<Session>;
  /** A session attached to the live store (it writes through persistence). */
  liveSession(id: string, turns: number): Promise<Session>;
  connect(options?: { token?: string }): Promise<RpcTestClient>;
  close(): Promise<void>;
}

export { turn };

export async function hostFixture(
  options: Partial<Omit<HostOptions, 'services'>> & { services?: Partial<HostServices> } = {},
): Promise<HostFixture> {
  const stack = await openTempStack({ prefix: 'strand-host' });
  const { persistence, preparations, store, registry, cache, query } = stack;
  const services = {
    persistence,
    preparations,
    store,
    registry,
    cache,
    query,
    ...options.services,
    jsonl: stack.jsonl,
  };
  const host = await startHost({ ...options, services });
  const clients: RpcTestClient[] = [];

  const write = async (
    id: string,
    turns: number,
    header: Partial<NewSessionHeader> = {},
    list: 'folded' | 'header-only' = 'folded',
  ): Promise<Session> => {
    const session = await writeStoredSession(persistence, id, turns, { header });
    const listCache = services.cache;
    if (list === 'header-only')
      listCache.noteSession({ header: session.header, incarnation: session.incarnation ?? '' });
    else await foldListHints({ persistence, query, cache: listCache, store, logger: silentLogger }, [id]);
    return session;
  };

  return {
    host,
    services,
    storedSession: write,
    async liveSession(id, turns) {
      const session = await write(id, turns);
      store.attach(session);
      return session;
    },
    async connect(connectOptions = {}) {
      const client = await RpcTestClient.open(
        host.rpcUrl +
          (connectOptions.token === undefined ? '' : `?token=${encodeURIComponent(connectOptions.token)}`),
      );
      clients.push(client);
      return client;
    },
    async close() {
      for (const client of clients) client.close();
      await host.close();
      await stack.close();
    },
  };
}

type Message = {
  id?: number | string | null;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string; data: { code: string } };
};

/** A raw JSON-RPC client over `ws` that records every frame in arrival order. */
export class RpcTestClient {
  readonly frames: Message[] = [];
  readonly #waiters = new Map<number | string, (message: Message) => void>();
  readonly #listeners = new Set<(message: Message) => void>();
  #nextId = 1;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString('utf8')) as Message;
      this.frames.push(message);
      if (message.id !== undefined && message.id !== null) this.#waiters.get(message.id)?.(message);
      for (const listener of this.#listeners) listener(message);
    });
  }

  static open(url: string): Promise<RpcTestClient> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      ws.once('open', () => resolve(new RpcTestClient(ws)));
      ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
      ws.once('error', reject);
    });
  }

  /** Sends a request and resolves with the whole response message (result or error). */
  request(method: string, params: unknown = {}): Promise<Message> {
    const id = this.#nextId++;
    return this.raw(JSON.stringify({ jsonrpc: '2.0', id, method, params }), id);
  }

  raw(text: string, id: number | string | null = null): Promise<Message> {
    return new Promise((resolve) => {
      if (id !== null) this.#waiters.set(id, resolve);
      else {
        const listener = (message: Message): void => {
          if (message.id === null && message.error !== undefined) {
            this.#listeners.delete(listener);
            resolve(message);
          }
        };
        this.#listeners.add(listener);
      }
      this.ws.send(text);
    });
  }

  async call<T = unknown>(method: string, params: unknown = {}): Promise<T> {
    const reply = await this.request(method, params);
    if (reply.error !== undefined)
      throw Object.assign(new Error(reply.error.message), {
        code: reply.error.data.code,
        rpcCode: reply.error.code,
      });
    return reply.result as T;
  }

  /**
   * Resolves with the first notification matching `predicate` (already received or future). It
   * waits on the frames themselves; the hang guard only names a frame that never came (a bench
   * whose runs outlast the tests' may raise it).
   */
  waitFor(predicate: (message: Message) => boolean, timeoutMs = HANG_GUARD_MS): Promise<Message> {
    const seen = this.frames.find((m) => m.method !== undefined && predicate(m));
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('timed out waiting for a frame')), timeoutMs);
      const listener = (message: Message): void => {
        if (message.method !== undefined && predicate(message)) {
          clearTimeout(timer);
          this.#listeners.delete(listener);
          resolve(message);
        }
      };
      this.#listeners.add(listener);
    });
  }

  close(): void {
    this.ws.close();
  }
}

/** A WebSocket upgrade with exactly these headers: 101 when it opened, else the refusal. */
export function upgrade(url: string, headers: Record<string, string>): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once('open', () => {
      ws.close();
      resolve({ status: 101, headers: {}, body: '' });
    });
    ws.once('unexpected-response', (_request, response) => void readAnswer(response).then(resolve, reject));
    ws.once('error', reject);
  });
}
