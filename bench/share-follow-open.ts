/**
 * The share-link part of `bench:host` (issue 42: checking a grant adds ≤ 1 ms to a follow's
 * opening): the time from dialling `/rpc` to the `session.follow` answer, under the host token and
 * under a share token of that session, interleaved so both see the same machine.
 */
import { WebSocket } from 'ws';
import { startHost, type HostServices } from '@strand/host';
import { FileShareGrantStore } from '@strand/runtime';
import { median, timeIt } from './bench-util.js';

const TOKEN = 'bench-host-token-of-sixteen-or-more';
const RUNS = 100;
const WARMUP = 10;

/** One connection: open it with `token`, send one request, resolve with its answer, close. */
function callOnce(rpcUrl: string, token: string, method: string, params: unknown): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${rpcUrl}?token=${encodeURIComponent(token)}`);
    ws.once('error', reject);
    ws.once('open', () => ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })));
    ws.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString('utf8')) as { id?: number; result?: unknown; error?: unknown };
      if (message.id !== 1) return;
      ws.close();
      if (message.error !== undefined) reject(new Error(JSON.stringify(message.error)));
      else resolve(message.result);
    });
  });
}

/** Median follow-opening times (ms) under the host token and under a share token, over `sessionId`. */
export async function followOpenTimes(
  services: HostServices,
  grantsDir: string,
  sessionId: string,
): Promise<{ followOpenMs: number; shareFollowOpenMs: number }> {
  const shares = await FileShareGrantStore.open(grantsDir);
  const host = await startHost({ services: { ...services, shares }, token: TOKEN, requireToken: true });
  try {
    const { shareToken } = (await callOnce(host.rpcUrl, TOKEN, 'share.create', {
      id: sessionId,
      createdBy: 'web',
    })) as { shareToken: string };
    const follow = { id: sessionId, window: 10 };
    const hostTimes: number[] = [];
    const shareTimes: number[] = [];
    for (let i = 0; i < WARMUP + RUNS; i++) {
      const underHost = (await timeIt(() => callOnce(host.rpcUrl, TOKEN, 'session.follow', follow))).ms;
      const underShare = (await timeIt(() => callOnce(host.rpcUrl, shareToken, 'session.follow', follow))).ms;
      if (i < WARMUP) continue;
      hostTimes.push(underHost);
      shareTimes.push(underShare);
    }
    return { followOpenMs: median(hostTimes), shareFollowOpenMs: median(shareTimes) };
  } finally {
    await host.close();
  }
}
