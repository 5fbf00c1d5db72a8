/**
 * The client and the real host together (the CLI package is where both meet): a follower whose
 * host goes away mid-stream, while the session keeps appending, converges after the reconnect
 * with no lost and no duplicated seq, in a new generation.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { WebSocket } from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { ProjectionStore, SessionFollower, StrandConnection } from '@strand/client';
import { startHost, type RunningHost } from '@strand/host';
import { openStrandRuntime, type StrandRuntime } from '@strand/runtime';
import { eventually } from '@strand/test-support';
import { liveSession } from './testing/live-session.js';

let root: string;
let runtime: StrandRuntime;
let host: RunningHost | undefined;
afterEach(async () => {
  await host?.close();
  await runtime.close();
  rmSync(root, { recursive: true, force: true });
});

describe('client ↔ host reconnect', () => {
  it('a follow that loses its host mid-stream converges after reconnect: no lost or duplicated seq, a new generation, title frame applied', async () => {
    root = mkdtempSync(path.join(tmpdir(), 'strand-reconnect-'));
    runtime = await openStrandRuntime({ dataDir: root, syncSearch: false });
    const id = 'streaming';
    const session = await liveSession(runtime, id, 20);

    host = await startHost({ services: runtime.services });
    const port = host.port;
    const connection = new StrandConnection({
      url: host.rpcUrl,
      WebSocket: WebSocket,
      backoff: { initialMs: 50, maxMs: 200 },
    });
    const store = new ProjectionStore();
    const follower = new SessionFollower({ connection, store, window: 50 });
    await follower.follow(id);
    const first = follower.view.shown!;
    for (let i = 20; i < 25; i++) await session.append({ type: 'x/tick', data: { i } });
    await eventually(() => follower.view.shown?.cursor === 25, 'live frames before the drop');

    await host.close();
    host = undefined;
    // Appends while no host is there to deliver them.
    for (let i = 25; i < 40; i++) await session.append({ type: 'x/tick', data: { i } });
    await session.append({ type: 'session/title', data: { title: 'after the gap' } });
    host = await startHost({ services: runtime.services, port });
    for (let i = 41; i < 45; i++) await session.append({ type: 'x/tick', data: { i } });

    await eventually(
      () => follower.view.shown?.cursor === session.cursor && follower.view.phase === 'following',
      'convergence after reconnect',
    );
    const shown = follower.view.shown!;
    // A new socket (epoch) and a new generation shown; the host's counters restart with the host.
    expect(connection.epoch).toBeGreaterThanOrEqual(2);
    expect(shown).not.toBe(first);
    const seqs = shown.events.map((e) => e.seq);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => shown.firstSeq + i));
    expect(seqs.at(-1)).toBe(session.cursor - 1);
    expect(shown.events).toEqual(JSON.parse(JSON.stringify(session.events.slice(shown.firstSeq))));
    expect(store.get(id, 'title')).toMatchObject({ known: true, value: 'after the gap' });
    await follower.unfollow();
    connection.close();
  }, 120_000);
});
