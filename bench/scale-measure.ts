/**
 * The timed part of `npm run bench:scale`: `session.list` pages and `session.search` over the wire
 * to the host process (`scale-host.ts`), its RSS sampled from /proc while it serves them.
 */
import { readFileSync } from 'node:fs';
import { WebSocket } from 'ws';
import { mulberry32, VOCABULARY } from '@strand/workload';
import { HARNESSES, projectOf, titleOf, type CorpusSize } from './scale-corpus.js';

/** Rows per timed page: `session.list`'s default page. */
const PAGE = 200;
/** Rows per page of the walk that collects the deep cursors (the most a page may hold). */
const WALK_PAGE = 1_000;
/** Cursors kept from the walk, spread over its depth, each timed as a deep page. */
const DEEP_POINTS = 20;

export interface ScaleFigures {
  listPageP99Ms: number;
  filteredPageP99Ms: number;
  searchP99Ms: number;
  hostRssMB: number;
  /** Rows the walk over every page received (the corpus, when every page was answered). */
  listedRows: number;
  /** Timed calls that returned a result: pages first, deep and filtered, then searches. */
  pagesAnswered: number;
  searchesAnswered: number;
}

interface ListResult {
  sessions: unknown[];
  nextCursor?: string;
}

/** One JSON-RPC connection; a call's error rejects it (a bench that gets errors has no figures). */
class RpcClient {
  readonly #ws: WebSocket;
  readonly #waiting = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void }
  >();
  #nextId = 1;

  private constructor(ws: WebSocket) {
    this.#ws = ws;
    ws.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString('utf8')) as { id?: number; result?: unknown; error?: unknown };
      const waiter = message.id === undefined ? undefined : this.#waiting.get(message.id);
      if (waiter === undefined) return;
      this.#waiting.delete(message.id!);
      if (message.error !== undefined) waiter.reject(new Error(JSON.stringify(message.error)));
      else waiter.resolve(message.result);
    });
  }

  static async open(url: string): Promise<RpcClient> {
    const ws = new WebSocket(url);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    return new RpcClient(ws);
  }

  call<T>(method: string, params: unknown): Promise<T> {
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      this.#waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.#ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    });
  }

  close(): void {
    this.#ws.close();
  }
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

/** A process's resident set now (Linux /proc; NaN elsewhere). */
function rssBytesOf(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match === null ? NaN : Number(match[1]) * 1024;
  } catch {
    return NaN;
  }
}

async function timed<T>(times: number[], fn: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const value = await fn();
  times.push(performance.now() - started);
  return value;
}

/**
 * Measures the host at `rpcUrl` (process `pid`): `rounds` repetitions of each timed call after one
 * untimed warm-up pass. The walk over every page proves each session reachable by cursor.
 */
export async function measureHost(
  rpcUrl: string,
  pid: number,
  size: CorpusSize,
  rounds: number,
): Promise<ScaleFigures> {
  let peakRss = rssBytesOf(pid);
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssBytesOf(pid))), 50);
  const client = await RpcClient.open(rpcUrl);
  const list = (params: object): Promise<ListResult> => client.call<ListResult>('session.list', params);
  try {
    // The walk: every page of the whole list, keeping cursors spread over its depth.
    const deep: string[] = [];
    const every = Math.max(1, Math.floor(size.sessions / WALK_PAGE / DEEP_POINTS));
    let listedRows = 0;
    let cursor: string | undefined;
    for (let page = 0; ; page++) {
      const result = await list({ limit: WALK_PAGE, ...(cursor === undefined ? {} : { cursor }) });
      listedRows += result.sessions.length;
      cursor = result.nextCursor;
      if (cursor === undefined) break;
      if (page % every === 0) deep.push(cursor);
    }

    const rng = mulberry32(9_001);
    const word = (): string => VOCABULARY[Math.floor(rng() * VOCABULARY.length)]!;
    const filters: object[] = [
      { cwd: projectOf(7) },
      { harness: HARNESSES[1] },
      { parent: null },
      { titlePrefix: word().slice(0, 3) },
      { cwd: projectOf(3), harness: HARNESSES[3], parent: null },
    ];
    // Literal single words and quoted phrases (the first two words of a session's title).
    const queries = Array.from({ length: 20 }, (_, i) =>
      i % 2 === 0
        ? word()
        : `"${titleOf(Math.floor(rng() * size.sessions))
            .split(' ')
            .slice(0, 2)
            .join(' ')}"`,
    );

    const listTimes: number[] = [];
    const filteredTimes: number[] = [];
    const searchTimes: number[] = [];
    let pagesAnswered = 0;
    let searchesAnswered = 0;
    for (let round = 0; round <= rounds; round++) {
      // Round 0 warms up (statements prepared, pages cached); its times are dropped.
      const into = (times: number[]): number[] => (round === 0 ? [] : times);
      await timed(into(listTimes), () => list({ limit: PAGE }));
      for (const at of deep) await timed(into(listTimes), () => list({ limit: PAGE, cursor: at }));
      for (const filter of filters) {
        const first = await timed(into(filteredTimes), () => list({ limit: PAGE, ...filter }));
        if (first.nextCursor !== undefined)
          await timed(into(filteredTimes), () => list({ limit: PAGE, ...filter, cursor: first.nextCursor }));
      }
      for (const query of queries)
        await timed(into(searchTimes), () => client.call('session.search', { query, limit: 20 }));
      if (round > 0) {
        pagesAnswered = listTimes.length + filteredTimes.length;
        searchesAnswered = searchTimes.length;
      }
    }
    return {
      listPageP99Ms: percentile(listTimes, 99),
      filteredPageP99Ms: percentile(filteredTimes, 99),
      searchP99Ms: percentile(searchTimes, 99),
      hostRssMB: Math.round(Math.max(peakRss, rssBytesOf(pid)) / 1e6),
      listedRows,
      pagesAnswered,
      searchesAnswered,
    };
  } finally {
    clearInterval(sampler);
    client.close();
  }
}
