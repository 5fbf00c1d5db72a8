import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { StrandConnection } from '@strand/client';
import { openJsonlPersistence, persistenceWriter } from '@strand/persistence';
import type { FollowSnapshot, WireEvent } from '@strand/protocol';
import { Session, newSessionHeader } from '@strand/session';
import { answerWith, mockChatServer, type MockChatServer } from '@strand/test-support';
import { DEMO_LIVE_SESSION } from './commands/demo-corpus.js';
import { STRAND_BIN } from './testing/strand-process.js';

/**
 * `strand serve --demo --models <file>` in a real child process, with a local OpenAI-compatible
 * endpoint (a recording HTTP server on 127.0.0.1) as the host's default model: the demo ticker
 * must never reach it — not by default, not after a person selected it on `demo-live` — while an
 * ordinary session in the same process does.
 */
const LOCAL = { provider: 'local', model: 'tiny-1' };
const SCRIPTED = { provider: 'strand', model: 'scripted' };

let data: string;
let server: MockChatServer;
let serve: ChildProcess;
let connection: StrandConnection;

beforeAll(async () => {
  server = await mockChatServer();
  server.handle(answerWith('answered by the endpoint'));
  data = mkdtempSync(path.join(tmpdir(), 'strand-serve-models-'));
  // Only the live demo session, with no model recorded (a folder that holds a session gets no
  // corpus): without a pinned model its ticks would go to the host's default, the endpoint.
  const persistence = await openJsonlPersistence({ root: data });
  const header = newSessionHeader({ id: DEMO_LIVE_SESSION, createdAt: 1_000, agentPreset: 'general' });
  const { incarnation } = await persistence.create({ header });
  const session = new Session({ header, incarnation, writer: persistenceWriter(persistence, header.id) });
  await session.append([
    { type: 'turn/start', data: {} },
    { type: 'user/message', data: { content: 'start the demo', author: 'human' } },
    { type: 'turn/end', data: { reason: 'completed' } },
  ]);
  await persistence.close();
  const models = path.join(data, 'models.json');
  writeFileSync(models, JSON.stringify({ models: [{ ...LOCAL, baseUrl: server.baseUrl }] }));

  serve = spawn(
    process.execPath,
    [STRAND_BIN, 'serve', '--data', data, '--port', '0', '--json', '--demo', '--models', models],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const rpcUrl = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    serve.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = stdout.split('\n').find((l) => l.startsWith('{'));
      if (line !== undefined) resolve((JSON.parse(line) as { rpcUrl: string }).rpcUrl);
    });
    serve.once('exit', (code) => reject(new Error(`serve exited ${code}: ${stdout}`)));
  });
  connection = new StrandConnection({ url: rpcUrl, WebSocket });
}, 120_000);

afterAll(async () => {
  connection?.close();
  if (serve !== undefined && serve.exitCode === null) {
    const exited = new Promise((resolve) => serve.once('exit', resolve));
    serve.kill('SIGINT');
    await exited;
  }
  await server?.close();
  rmSync(data, { recursive: true, force: true });
});

/** Every event of a session as a follower sees it (snapshot window, then frames); waits on conditions. */
async function follow(id: string): Promise<{
  events: WireEvent[];
  until(condition: (events: readonly WireEvent[]) => boolean): Promise<void>;
}> {
  const events: WireEvent[] = [];
  const waiters = new Set<() => void>();
  // Frames may arrive before the follow's result is handled: keep them until its id is known.
  const early: { followId: string; events: WireEvent[] }[] = [];
  const state: { followId?: string } = {};
  connection.onNotification(({ method, params }) => {
    if (method !== 'follow.events') return;
    const frame = params as { followId: string; events: WireEvent[] };
    if (state.followId === undefined) early.push(frame);
    else if (frame.followId === state.followId) events.push(...frame.events);
    for (const wake of waiters) wake();
  });
  const snapshot: FollowSnapshot = await connection.call('session.follow', { id, window: 1000 });
  state.followId = snapshot.followId;
  events.push(...snapshot.events);
  for (const frame of early) if (frame.followId === snapshot.followId) events.push(...frame.events);
  return {
    events,
    until: (condition) =>
      new Promise<void>((resolve) => {
        const check = (): void => {
          if (!condition(events)) return;
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
        check();
      }),
  };
}

const turnEnds = (events: readonly WireEvent[]): number => events.filter((e) => e.type === 'turn/end').length;

/** Turns the ticker ran to their end (their prompt is `Tick n: …`). */
function ticksEnded(events: readonly WireEvent[]): number {
  let ended = 0;
  let inTick = false;
  for (const e of events) {
    if (e.type === 'user/message')
      inTick = String((e.data as { content: unknown }).content).startsWith('Tick ');
    if (e.type === 'turn/end' && inTick) ended++;
  }
  return ended;
}
const headersOf = (events: readonly WireEvent[]): unknown[] =>
  events.filter((e) => e.type === 'request/header').map((e) => e.data);

describe('serve --demo beside a configured endpoint', () => {
  it('the demo ticker always runs on the scripted model; an ordinary session reaches the endpoint', async () => {
    const { models } = await connection.call('catalog.models', {});
    expect(models.map(({ provider, model }) => ({ provider, model }))).toEqual([SCRIPTED, LOCAL]);

    const live = await follow(DEMO_LIVE_SESSION);
    await live.until((events) => ticksEnded(events) >= 1);
    // A person picks the endpoint on the demo session: the ticker still does not spend it.
    await connection.call('session.selectModel', { id: DEMO_LIVE_SESSION, ...LOCAL });
    const ticksBefore = ticksEnded(live.events);
    await live.until((events) => ticksEnded(events) > ticksBefore);

    // A positive control in the same process: the endpoint is configured, reachable and the default.
    const { id } = await connection.call('session.create', { prompt: 'hello endpoint' });
    const other = await follow(id);
    await other.until((events) => turnEnds(events) >= 1);
    expect(headersOf(other.events)).toEqual([LOCAL]);

    expect(server.requests).toHaveLength(1);
    expect(JSON.stringify(server.requests[0]!.body)).toContain('hello endpoint');
    const ticks = headersOf(live.events);
    expect(ticks.length).toBeGreaterThanOrEqual(2);
    expect(new Set(ticks.map((h) => JSON.stringify(h)))).toEqual(new Set([JSON.stringify(SCRIPTED)]));
  }, 60_000);
});

describe('serve refuses a model configuration it cannot honour', () => {
  const run = (...args: string[]): { code: number | null; stderr: string } => {
    const result = spawnSync(process.execPath, [STRAND_BIN, 'serve', '--port', '0', ...args], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    return { code: result.status, stderr: result.stderr };
  };

  it('a --model without a --base-url fails instead of being ignored', () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'strand-serve-bad-'));
    try {
      const result = run('--data', empty, '--model', 'gpt-4o');
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('needs a base URL');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('a malformed models file fails naming the file and the field, before the data folder is touched', () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'strand-serve-bad-'));
    try {
      const file = path.join(empty, 'models.json');
      writeFileSync(file, JSON.stringify({ models: [{ model: 'm' }] }));
      const result = run('--data', path.join(empty, 'data'), '--demo', '--models', file);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('models.0.baseUrl');
      expect(existsSync(path.join(empty, 'data'))).toBe(false);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
