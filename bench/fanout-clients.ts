/**
 * The follower side of the host fan-out benchmark, in its own process so the host's figures are
 * the host's: N WebSocket followers of one session plus one stalled follower that never reads.
 * Prints one JSON line with delivery counts, lag percentiles and whether the stalled one got resync.
 */
import { WebSocket } from 'ws';

const [url, sessionId, countArg, durationArg] = process.argv.slice(2) as [string, string, string, string];
const count = Number(countArg);
const durationMs = Number(durationArg);
const lags: number[] = [];
let delivered = 0;

function open(): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

function follow(ws: WebSocket): Promise<void> {
  return new Promise((resolve) => {
    ws.on('message', (data: Buffer) => {
      const text = data.toString('utf8');
      if (text.includes('"id":1,')) return resolve();
      if (!text.startsWith('{"jsonrpc":"2.0","method":"follow.events"')) return;
      const now = Date.now();
      const message = JSON.parse(text) as { params: { events: { time: number }[] } };
      for (const event of message.params.events) {
        lags.push(now - event.time);
        delivered++;
      }
    });
    ws.send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'session.follow',
        params: { id: sessionId, window: 10 },
      }),
    );
  });
}

const followers = await Promise.all(Array.from({ length: count }, open));
await Promise.all(followers.map(follow));
const stalled = await open();
let stalledGotResync = false;
stalled.on('message', (data: Buffer) => {
  if (data.toString('utf8').includes('"follow.resync"')) stalledGotResync = true;
});
await new Promise<void>((resolve) => {
  stalled.once('message', () => resolve());
  stalled.send(
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'session.follow',
      params: { id: sessionId, window: 10 },
    }),
  );
});
(stalled as unknown as { _socket: { pause(): void } })._socket.pause();
process.stdout.write('ready\n');
const started = Date.now();
await new Promise((resolve) => setTimeout(resolve, durationMs + 500));
(stalled as unknown as { _socket: { resume(): void } })._socket.resume();
await new Promise((resolve) => setTimeout(resolve, 2000));
lags.sort((a, b) => a - b);
const pct = (p: number): number => lags[Math.min(lags.length - 1, Math.floor(p * lags.length))] ?? NaN;
console.log(
  JSON.stringify({
    delivered,
    seconds: (Date.now() - started) / 1000,
    lagP50Ms: pct(0.5),
    lagP99Ms: pct(0.99),
    stalledGotResync,
  }),
);
for (const ws of [...followers, stalled]) ws.terminate();
