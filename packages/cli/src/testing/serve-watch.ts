import { expect } from 'vitest';
import { importTranscripts, type Harness } from '@strand/import';
import { openJsonlPersistence } from '@strand/persistence';
import type { FollowSnapshot, SessionListRow, WireEvent } from '@strand/protocol';
import type { RpcTestClient } from '@strand/runtime/testing';
import { startStrand, type StrandProcess } from './strand-process.js';

/**
 * `strand serve --watch` as its tests drive it: a real host process watching a folder, a
 * follower's view of what it received, and a data folder read back whole (to compare with a
 * one-shot import of the same files).
 */

/** Starts `strand serve --watch <harness>:<src>` on a free port; the caller kills the host. */
export async function serveWatching(
  harness: Harness,
  src: string,
  data: string,
): Promise<{ host: StrandProcess; rpcUrl: string }> {
  const host = startStrand([
    'serve',
    '--watch',
    `${harness}:${src}`,
    '--data',
    data,
    '--port',
    '0',
    '--json',
  ]);
  try {
    const out = await host.until((s) => s.includes('"rpcUrl"'), 'the serve URL');
    const { rpcUrl } = JSON.parse(out.trim().split('\n').at(-1)!) as { rpcUrl: string };
    return { host, rpcUrl };
  } catch (error) {
    host.kill('SIGKILL');
    throw error;
  }
}

export type Plain = Pick<WireEvent, 'type' | 'time' | 'data'>;
export const plain = (events: readonly WireEvent[]): Plain[] =>
  events.map(({ type, time, data }) => ({ type, time, data }));

/** Every session of a data folder: header and events. */
export async function storeOf(data: string): Promise<Map<string, { header: unknown; events: Plain[] }>> {
  const persistence = await openJsonlPersistence({ root: data });
  try {
    const out = new Map<string, { header: unknown; events: Plain[] }>();
    for (const row of await persistence.list()) {
      const log = await persistence.inspect(row.header.id);
      out.set(row.header.id, { header: log.header, events: plain(log.events) });
    }
    return out;
  } finally {
    await persistence.close();
  }
}

/** What a one-shot import of `src` writes. */
export async function oneShot(
  harness: Harness,
  src: string,
  fresh: string,
): Promise<Map<string, { header: unknown; events: Plain[] }>> {
  await importTranscripts({ harness, sourceDir: src, dataDir: fresh });
  return storeOf(fresh);
}

/**
 * Follows `id` and collects every event it receives, opening snapshot included; `arrivals` are
 * the receipt times (`Date.now()`) of the live batches, for the ingest benchmark.
 */
export async function follow(
  client: RpcTestClient,
  id: string,
): Promise<{ events: () => WireEvent[]; followId: string }> {
  const snapshot = await client.call<FollowSnapshot>('session.follow', { id, window: 10_000 });
  expect(snapshot.header.source).toBeDefined();
  return {
    followId: snapshot.followId,
    events: () => {
      const out = [...snapshot.events];
      for (const m of client.frames) {
        if (m.method !== 'follow.events') continue;
        const params = m.params as { followId: string; events: WireEvent[] };
        if (params.followId === snapshot.followId) out.push(...params.events);
      }
      return out;
    },
  };
}

export async function listed(client: RpcTestClient): Promise<SessionListRow[]> {
  return (await client.call<{ sessions: SessionListRow[] }>('session.list')).sessions;
}
