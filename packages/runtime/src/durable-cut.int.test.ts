import { spawn, type ChildProcess } from 'node:child_process';
import {
  closeSync,
  fdatasync,
  fstatSync,
  fsync,
  ftruncateSync,
  linkSync,
  mkdtempSync,
  openSync,
  promises as fsp,
  rmSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import type { FollowSnapshot, WireEvent } from '@strand/protocol';
import {
  JsonlSessionPersistence,
  openJsonlPersistence,
  type JsonlPersistenceOptions,
} from '@strand/persistence';
import { SessionId } from '@strand/session';
import { FaultyPersistence, crashedTurn, writingSession } from '@strand/test-support';
import { RpcTestClient } from './testing/host-fixture.js';
import { startHost, type RunningHost } from '@strand/host';
import { openStrandRuntime, type StrandRuntime } from './strand-runtime.js';

/**
 * The durable cut over a real host, real WebSockets and real files: faults injected at the writer
 * (a failed write, a hung one, a SIGKILL between write and acknowledgement), then a restart. After
 * each, every event any follower received is on disk with identical content.
 */

const childScript = path.join(path.dirname(fileURLToPath(import.meta.url)), 'test', 'faulty-host.child.ts');
const roots: string[] = [];
const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function dataDir(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'strand-durable-cut-'));
  roots.push(root);
  return root;
}

/** Every event a follower of `followId` holds: its snapshot's, then every `follow.events` frame's. */
function received(client: RpcTestClient, snapshot: FollowSnapshot): WireEvent[] {
  const events = [...snapshot.events];
  for (const frame of client.frames) {
    const params = frame.params as { followId?: string; events?: WireEvent[] } | undefined;
    if (frame.method === 'follow.events' && params?.followId === snapshot.followId)
      events.push(...params.events!);
  }
  return events;
}

/** The session as a fresh runtime over the same folder reads it (the restart). */
async function storedAfterRestart(root: string, id: string): Promise<readonly WireEvent[]> {
  const runtime = await openStrandRuntime({ dataDir: root, syncSearch: false });
  try {
    return (await runtime.services.persistence.inspect(SessionId(id))).events;
  } finally {
    await runtime.close();
  }
}

function expectAllOnDisk(seen: readonly WireEvent[], stored: readonly WireEvent[]): void {
  expect(seen.length).toBeGreaterThan(0);
  seen.forEach((event, i) => {
    expect(event.seq, 'a follower receives seqs in order, without gaps').toBe(seen[0]!.seq + i);
    expect(stored[event.seq], `event ${event.seq} a follower received`).toEqual(event);
  });
}

async function openHost(
  root: string,
  options: Parameters<typeof openStrandRuntime>[0] | undefined = undefined,
): Promise<{ runtime: StrandRuntime; host: RunningHost; client: RpcTestClient }> {
  const runtime = await openStrandRuntime(options ?? { dataDir: root, syncSearch: false });
  const host = await startHost({ services: runtime.services });
  const client = await RpcTestClient.open(host.rpcUrl);
  cleanups.push(async () => {
    client.close();
    await host.close();
    await runtime.close();
  });
  return { runtime, host, client };
}

type StateParams = {
  followId: string;
  live: boolean;
  busy: boolean;
  stopped?: { code: string; message: string };
};

describe('a failed durable write', () => {
  it('is never shown, stops the session visibly, refuses the next command while the cause lasts, and reopens from disk once it is fixed', async () => {
    const root = dataDir();
    let diskBroken = false;
    const { runtime, host, client } = await openHost(root, {
      dataDir: root,
      syncSearch: false,
      wrapPersistence: (inner) =>
        new FaultyPersistence(inner, (ordinal) => {
          // The third append of the first turn (its assistant/message) fails, and so does every
          // append after it until the cause is "fixed".
          if (ordinal === 3) diskBroken = true;
          return diskBroken ? 'fail' : undefined;
        }),
    });
    const { id } = await client.call<{ id: string }>('session.create', { cwd: '/work' });
    const snapshot = await client.call<FollowSnapshot>('session.follow', { id });
    await expect(client.call('session.prompt', { id, text: 'hello' })).resolves.toEqual({ accepted: true });

    const stopped = await client.waitFor(
      (m) => m.method === 'follow.state' && (m.params as StateParams).stopped !== undefined,
    );
    expect((stopped.params as StateParams).stopped).toEqual({
      code: 'SESSION_WRITE_FAILED',
      message: expect.stringContaining('(EIO)') as string,
    });
    // The turn ends with the error and the session detaches: the next command reads the disk.
    const cold = await client.waitFor((m) => m.method === 'follow.state' && !(m.params as StateParams).live);
    await runtime.agents.whenSettled();
    expect(runtime.services.store.has(SessionId(id))).toBe(false);
    // Stopped stays stopped until the session reopens: the frame that says it went cold says why,
    // and so does the opening of a follower that comes later.
    expect((cold.params as StateParams).stopped).toEqual((stopped.params as StateParams).stopped);
    const late = await RpcTestClient.open(host.rpcUrl);
    cleanups.push(() => late.close());
    const lateSnapshot = await late.call<FollowSnapshot>('session.follow', { id });
    const lateState = await late.waitFor(
      (m) => m.method === 'follow.state' && (m.params as StateParams).followId === lateSnapshot.followId,
    );
    expect(lateState.params).toMatchObject({ live: false, stopped: (stopped.params as StateParams).stopped });
    // A reader sees what the disk holds: the open turn's repair closers are shown once written.
    const onDisk = await runtime.services.persistence.inspect(SessionId(id));
    expect(lateSnapshot.cursor).toBe(onDisk.events.length);
    expect(lateSnapshot.events.map((e) => e.type)).toEqual(onDisk.events.map((e) => e.type));
    expect(lateSnapshot.events.at(-1)?.type).toBe('request/header');
    const beforeFix = received(client, snapshot);
    expect(beforeFix.map((e) => e.type)).toEqual([
      'turn/start',
      'user/message',
      'step/start',
      'request/header',
    ]);

    // While the disk is still failing, the next command is a typed error, not `accepted` and silence.
    const refused = await client.request('session.prompt', { id, text: 'still broken?' });
    expect(refused.error?.data.code).toBe('AGENT_PERSISTENCE_FAILED');
    const renamed = await client.request('session.rename', { id, title: 'Renamed' });
    // A command on the cold session writes the crashed turn's repairs first: that write fails.
    expect(renamed.error?.data.code).toBe('PERSISTENCE_IO');
    await runtime.agents.whenSettled();

    diskBroken = false;
    await expect(client.call('session.prompt', { id, text: 'fixed now' })).resolves.toEqual({
      accepted: true,
    });
    await client.waitFor(
      (m) =>
        m.method === 'follow.events' &&
        ((m.params as { events: WireEvent[] }).events ?? []).some(
          (e) => e.type === 'turn/end' && (e.data as { reason: string }).reason === 'completed',
        ),
    );
    await runtime.agents.whenSettled();
    // Every state frame between the stop and the reopen said so; the reopened session does not.
    const states = client.frames
      .filter((m) => m.method === 'follow.state' && (m.params as StateParams).followId === snapshot.followId)
      .map((m) => m.params as StateParams);
    const firstStop = states.findIndex((state) => state.stopped !== undefined);
    const reopened = states.findIndex(
      (state, i) => i > firstStop && state.live && state.stopped === undefined,
    );
    expect(reopened).toBeGreaterThan(firstStop);
    expect(states.slice(firstStop, reopened).every((state) => state.stopped !== undefined)).toBe(true);
    const seen = received(client, snapshot);
    // The crashed turn was closed by repair events on reopen, then the new turn ran.
    expect(seen.slice(4, 6).map((e) => e.type)).toEqual(['step/end', 'turn/end']);
    for (const c of cleanups.splice(0).reverse()) await c();
    expectAllOnDisk(seen, await storedAfterRestart(root, id));
  });

  it('a session created without a prompt is durable before the command answers', async () => {
    const root = dataDir();
    const { client } = await openHost(root);
    const { id } = await client.call<{ id: string }>('session.create', { cwd: '/work' });
    for (const c of cleanups.splice(0).reverse()) await c();
    const { client: again } = await openHost(root);
    const snapshot = await again.call<FollowSnapshot>('session.follow', { id });
    expect(snapshot.header).toMatchObject({ id, cwd: '/work' });
    expect(snapshot.cursor).toBe(0);
  });

  it.each(['EPERM', 'EACCES', 'EROFS'])(
    'a rename of a cold crashed session whose log cannot be opened for writing (%s) answers PERSISTENCE_IO, not an internal error; the log is as before',
    async (code) => {
      const root = dataDir();
      const { client } = await openHost(root);
      const { id } = await client.call<{ id: string }>('session.create', { cwd: '/work' });
      for (const c of cleanups.splice(0).reverse()) await c();
      // A turn cut short on disk: the next command on the session writes its repairs first.
      const direct = await openJsonlPersistence({ root });
      const stored = await direct.inspect(SessionId(id));
      await writingSession(direct, stored.header, stored.incarnation, { events: stored.events }).append(
        crashedTurn('cut short', ['call-1']),
      );
      await direct.close();
      const before = await storedAfterRestart(root, id);

      // The restarted host opens the log's writer for that write: the open fails as the OS would.
      let refuseWriters = true;
      const fs = storageFsRefusingOpen(code, () => refuseWriters);
      const { client: again } = await openHost(root, {
        dataDir: root,
        syncSearch: false,
        wrapPersistence: () => new JsonlSessionPersistence(path.resolve(root), { root, fs }),
      });
      const renamed = await again.request('session.rename', { id, title: 'Renamed' });
      expect(renamed.error?.data.code).toBe('PERSISTENCE_IO');
      expect(renamed.error?.message).toContain(`(${code})`);
      expect(renamed.error?.message).not.toContain(root);
      refuseWriters = false;
      await again.call('session.rename', { id, title: 'Renamed' });
      for (const c of cleanups.splice(0).reverse()) await c();
      const after = await storedAfterRestart(root, id);
      expect(after.slice(0, before.length)).toEqual(before);
      expect(after.at(-1)?.data).toEqual({ title: 'Renamed' });
    },
  );
});

/** node:fs as the JSONL backend writes through it, but a writer's `r+` open fails with `code` while `refuse()`. */
function storageFsRefusingOpen(
  code: string,
  refuse: () => boolean,
): NonNullable<JsonlPersistenceOptions['fs']> {
  const open: typeof fsp.open = (file, flags, mode) =>
    refuse() && flags === 'r+'
      ? Promise.reject(Object.assign(new Error(`${code}: injected fault, open`), { code, syscall: 'open' }))
      : fsp.open(file, flags, mode);
  const { rename, unlink, rm, mkdir, readdir, access, stat } = fsp;
  return {
    open,
    rename,
    unlink,
    rm,
    mkdir,
    readdir,
    access,
    stat,
    statSync,
    linkSync,
    unlinkSync,
    writeSync,
    fstatSync,
    ftruncateSync,
    openSync,
    closeSync,
    fsync: promisify(fsync),
    fdatasync: promisify(fdatasync),
  };
}

describe('a host killed with a write in flight', () => {
  async function runUntilFault(
    root: string,
    spec: string,
  ): Promise<{ seen: WireEvent[]; fault: { ordinal: number; session: string } }> {
    const proc = spawn(process.execPath, ['--import', 'tsx', childScript, root, spec], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      proc.on('exit', (_c, signal) => resolve(signal)),
    );
    cleanups.push(() => void proc.kill('SIGKILL'));
    const lines = createInterface({ input: proc.stdout });
    const next = lineReader(lines, proc, () => stderr);
    const { rpcUrl } = (await next()) as { rpcUrl: string };
    const client = await RpcTestClient.open(rpcUrl);
    const { id } = await client.call<{ id: string }>('session.create', {});
    const snapshot = await client.call<FollowSnapshot>('session.follow', { id });
    await client.call('session.prompt', { id, text: 'hello' });
    const fault = (await next()) as { ordinal: number; session: string };
    // A frame the host sent before the kill may still be on its way: a ping round trip after the
    // fault flushes what was written to this socket before it.
    await client.request('session.list', {});
    proc.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    client.close();
    return { seen: received(client, snapshot), fault };
  }

  it.each([
    ['hangs before writing', 'hang@3'],
    ['dies between the durable write and its acknowledgement', 'write-then-hang@3'],
  ])('every event a follower received is on disk, identical, when the writer %s', async (_label, spec) => {
    const root = dataDir();
    const { seen, fault } = await runUntilFault(root, spec);
    expect(fault.ordinal).toBe(3);
    // Appends 1 and 2 were acknowledged (turn/start + user/message, step/start + request/header);
    // the third was not, so no follower saw it, whether or not it reached the disk.
    expect(seen.map((e) => e.type)).toEqual(['turn/start', 'user/message', 'step/start', 'request/header']);
    const stored = await storedAfterRestart(root, fault.session);
    expectAllOnDisk(seen, stored);
    if (spec.startsWith('write-then-hang')) expect(stored[4]?.type).toBe('assistant/message');
  });
});

function lineReader(
  lines: ReturnType<typeof createInterface>,
  proc: ChildProcess,
  stderr: () => string,
): () => Promise<unknown> {
  const queue: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  lines.on('line', (line) => {
    const waiter = waiting.shift();
    if (waiter === undefined) queue.push(line);
    else waiter(line);
  });
  return () =>
    new Promise((resolve, reject) => {
      const queued = queue.shift();
      if (queued !== undefined) return resolve(JSON.parse(queued));
      proc.once('exit', () => reject(new Error(`the host exited: ${stderr()}`)));
      waiting.push((line) => resolve(JSON.parse(line)));
    });
}
