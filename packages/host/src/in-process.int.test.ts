import { persistenceWriter } from '@strand/persistence';
import { Session, SessionId, newSessionHeader } from '@strand/session';
import { openTempStack, type TempStack } from '@strand/stack/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { inProcessHost, type InProcessHost, type InProcessSocket } from './in-process.js';
import { startHost, type RunningHost } from './server.js';

let stack: TempStack | undefined;
let host: RunningHost | undefined;
let inProcess: InProcessHost | undefined;
afterEach(async () => {
  await inProcess?.close();
  await host?.close();
  await stack?.close();
  inProcess = undefined;
  host = undefined;
  stack = undefined;
});

const TIME = Date.parse('2026-12-01T09:00:00Z');
const LIMITS = { maxFrameBytes: 4_096, maxInFlight: 4 };

/** A stack with one session of a prompt and an answer; the host's services (the stack's index is no `SearchPort`). */
async function corpus(): Promise<TempStack> {
  stack = await openTempStack({ prefix: 'strand-in-process' });
  const header = newSessionHeader({ id: SessionId('alpha'), createdAt: TIME, cwd: '/work' });
  const { incarnation } = await stack.persistence.create({ header });
  const session = new Session({
    header,
    incarnation,
    writer: persistenceWriter(stack.persistence, header.id),
  });
  await session.append([
    { type: 'turn/start', data: {}, time: TIME },
    { type: 'user/message', data: { content: 'hello', author: 'human' }, time: TIME },
    { type: 'turn/end', data: { reason: 'completed' }, time: TIME },
  ]);
  return stack;
}

function servicesOf(s: TempStack) {
  const { search: _search, ...services } = s;
  return services;
}

/** The frames one side of a connection receives, awaited in order. */
function inbox(onMessage: (listener: (text: string) => void) => void): () => Promise<string> {
  const queued: string[] = [];
  const waiting: ((text: string) => void)[] = [];
  onMessage((text) => {
    const next = waiting.shift();
    if (next === undefined) queued.push(text);
    else next(text);
  });
  return () => {
    const text = queued.shift();
    return text === undefined ? new Promise((resolve) => waiting.push(resolve)) : Promise.resolve(text);
  };
}

async function openInProcess(
  h: InProcessHost,
): Promise<{ socket: InProcessSocket; next: () => Promise<string> }> {
  const socket = new h.WebSocket('strand:in-process');
  const next = inbox((listener) => {
    socket.onmessage = (event) => listener(String(event.data));
  });
  await new Promise((resolve) => (socket.onopen = resolve));
  return { socket, next };
}

async function openWs(h: RunningHost): Promise<{ socket: WebSocket; next: () => Promise<string> }> {
  const socket = new WebSocket(h.rpcUrl);
  const next = inbox((listener) =>
    socket.on('message', (data) => listener((data as Buffer).toString('utf8'))),
  );
  await new Promise((resolve) => socket.once('open', resolve));
  return { socket, next };
}

/** Requests whose answers do not depend on the connection: reads, refusals and malformed frames. */
const FRAMES: readonly string[] = [
  JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'session.list', params: {} }),
  JSON.stringify({
    jsonrpc: '2.0',
    id: 2,
    method: 'session.page',
    params: { id: 'alpha', fromSeq: 1, limit: 2 },
  }),
  JSON.stringify({
    jsonrpc: '2.0',
    id: 3,
    method: 'session.page',
    params: { id: 'nobody', fromSeq: 0, limit: 1 },
  }),
  JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'no.such.method', params: {} }),
  JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'session.list', params: { limit: 'many' } }),
  '{ not json',
  JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'session.list', params: { pad: 'x'.repeat(5_000) } }),
  JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'session.search', params: { query: 'hello' } }),
];

describe('inProcessHost', () => {
  it('answers every frame exactly as the same host over a WebSocket at /rpc', async () => {
    const services = servicesOf(await corpus());
    host = await startHost({ services, limits: LIMITS });
    inProcess = inProcessHost({ services, limits: LIMITS });
    const overWs = await openWs(host);
    const here = await openInProcess(inProcess);
    for (const frame of FRAMES) {
      overWs.socket.send(frame);
      here.socket.send(frame);
      const [expected, actual] = await Promise.all([overWs.next(), here.next()]);
      expect(JSON.parse(actual), frame.slice(0, 60)).toEqual(JSON.parse(expected));
    }
    overWs.socket.close();
  });

  it('delivers a follow and its live frames, and drops the follow when the client closes', async () => {
    const s = await corpus();
    inProcess = inProcessHost({ services: servicesOf(s) });
    const here = await openInProcess(inProcess);
    here.socket.send(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'session.follow', params: { id: 'alpha' } }),
    );
    const snapshot = JSON.parse(await here.next()) as { result: { followId: string; cursor: number } };
    expect(snapshot.result.cursor).toBe(3);
    // A command over the same connection: its answer and the follow's live frame both arrive.
    here.socket.send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'session.rename',
        params: { id: 'alpha', title: 'Later' },
      }),
    );
    type Frame = {
      id?: number;
      result?: { seq: number };
      method?: string;
      params?: { followId: string; events: { seq: number; type: string }[] };
    };
    // The follow also sends state and projection frames; read until the answer and the events are in.
    const frames: Frame[] = [];
    while (!(frames.some((f) => f.id === 2) && frames.some((f) => f.method === 'follow.events')))
      frames.push(JSON.parse(await here.next()) as Frame);
    expect(frames.find((frame) => frame.id === 2)?.result).toEqual({ seq: 3 });
    const live = frames.find((frame) => frame.method === 'follow.events');
    expect(live?.params?.followId).toBe(snapshot.result.followId);
    expect(live?.params?.events.map((event) => [event.seq, event.type])).toEqual([[3, 'session/title']]);
    expect(inProcess.connections).toBe(1);
    const closed = new Promise<{ code: number }>((resolve) => (here.socket.onclose = resolve));
    here.socket.close();
    expect((await closed).code).toBe(1000);
    expect(inProcess.connections).toBe(0);
  });

  it('closing the host closes its connections (1001), refuses new ones and sends nothing more', async () => {
    inProcess = inProcessHost({ services: servicesOf(await corpus()) });
    const here = await openInProcess(inProcess);
    const closed = new Promise<{ code: number }>((resolve) => (here.socket.onclose = resolve));
    await inProcess.close();
    expect((await closed).code).toBe(1001);
    expect(() => here.socket.send('{}')).toThrow(/not open/);
    const late = new inProcess.WebSocket('strand:in-process');
    let opened = false;
    late.onopen = () => (opened = true);
    const lateClose = await new Promise<{ code: number }>((resolve) => (late.onclose = resolve));
    expect(lateClose.code).toBe(1001);
    expect(opened).toBe(false);
  });
});
