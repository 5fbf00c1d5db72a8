import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { WebSocket } from 'ws';
import { startHost } from '@strand/host';
import { openStrandRuntime } from '@strand/runtime';
import { median } from './bench-util.js';

const TURNS = 150;
/** Pause between turns: measures steady-state delivery, not a queue the bench itself builds. */
const GAP_MS = 15;

interface FollowEventsFrame {
  readonly method?: string;
  readonly id?: number;
  readonly result?: unknown;
  readonly params?: { readonly events?: readonly { readonly seq: number; readonly time: number }[] };
}

/**
 * Two hosts on one database, as two deployments would run them: host A runs an agent, a WebSocket
 * client follows the session on host B (where it is cold: B learns of A's appends through
 * LISTEN/NOTIFY and reads them by seq). Lag of an event = its arrival at B's client − its append
 * time on A (the event's own `time`; both hosts share this process's clock).
 */
export async function measureCrossHostLag(
  url: string,
  root: string,
): Promise<{ p50Ms: number; p99Ms: number; samples: number }> {
  mkdirSync(path.join(root, 'a'), { recursive: true });
  mkdirSync(path.join(root, 'b'), { recursive: true });
  const a = await openStrandRuntime({ dataDir: path.join(root, 'a'), store: url, syncSearch: false });
  const b = await openStrandRuntime({ dataDir: path.join(root, 'b'), store: url, syncSearch: false });
  const hostB = await startHost({ services: b.services });
  const ws = new WebSocket(hostB.rpcUrl);
  try {
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const lease = await a.agents.create({ cwd: '/tmp/bench' });
    await lease.agent.prompt('warm up');
    const lags: number[] = [];
    let lastSeq = -1;
    let followed!: () => void;
    const following = new Promise<void>((resolve) => (followed = resolve));
    ws.on('message', (data: Buffer) => {
      const arrived = Date.now();
      const frame = JSON.parse(data.toString('utf8')) as FollowEventsFrame;
      if (frame.id === 1) followed();
      if (frame.method !== 'follow.events') return;
      for (const event of frame.params?.events ?? []) {
        lags.push(arrived - event.time);
        lastSeq = event.seq;
      }
    });
    ws.send(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'session.follow', params: { id: lease.agent.id } }),
    );
    await following;
    for (let turn = 0; turn < TURNS; turn++) {
      await lease.agent.prompt(`turn ${turn}`);
      await new Promise((resolve) => setTimeout(resolve, GAP_MS));
    }
    const last = lease.agent.session.events.length - 1;
    const deadline = Date.now() + 10_000;
    while (lastSeq < last && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    if (lastSeq < last) throw new Error(`host B's follower stopped at seq ${lastSeq} of ${last}`);
    lease.release();
    const sorted = [...lags].sort((x, y) => x - y);
    return {
      p50Ms: median(sorted),
      p99Ms: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))]!,
      samples: sorted.length,
    };
  } finally {
    ws.close();
    await hostB.close();
    await a.close();
    await b.close();
  }
}
