/**
 * One writer per data folder, with real `strand` processes: a second host is refused before it
 * writes anything; `doctor --repair` is refused beside a host and works after it stops; a
 * SIGKILLed host's lock is taken over by the next start; read commands go through the host that
 * holds the folder (so `follow` is live) and read the disk while an import holds it.
 */
import { createHash } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { WebSocket } from 'ws';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StrandConnection } from '@strand/client';
import { openJsonlPersistence, persistenceWriter } from '@strand/persistence';
import { Session, SessionId, newSessionHeader } from '@strand/session';
import { holdDataFolder } from './data-lock/hold-for-command.js';
import { startServe, startStrand, strandAsync, type StrandProcess } from './testing/strand-process.js';

let data: string;
const running: StrandProcess[] = [];
beforeEach(() => {
  data = mkdtempSync(path.join(tmpdir(), 'strand-one-writer-'));
});
afterEach(async () => {
  for (const proc of running.splice(0)) {
    proc.kill('SIGKILL');
    await proc.exited;
  }
  rmSync(data, { recursive: true, force: true });
});

async function serve(extra: string[] = [], env: NodeJS.ProcessEnv = {}) {
  const host = await startServe(data, extra, env);
  running.push(host.process);
  return host;
}

async function stop(proc: StrandProcess): Promise<number | null> {
  proc.kill('SIGINT');
  return proc.exited;
}

function connect(rpcUrl: string): StrandConnection {
  return new StrandConnection({ url: rpcUrl, WebSocket: WebSocket });
}

/** Every file under the folder with a digest of its bytes (SQLite files by name: the host owns them). */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (sub: string): void => {
    for (const name of readdirSync(path.join(dir, sub))) {
      const rel = path.join(sub, name);
      if (statSync(path.join(dir, rel)).isDirectory()) walk(rel);
      else if (!/\.db(-wal|-shm|-journal)?$/.test(name))
        files[rel] = createHash('sha256')
          .update(readFileSync(path.join(dir, rel)))
          .digest('hex');
    }
  };
  walk('');
  return files;
}

/** A session whose turn a crash left open: turn/start and the prompt, no turn/end. */
async function writeCrashedTurn(id: string): Promise<void> {
  const persistence = await openJsonlPersistence({ root: data });
  try {
    const header = newSessionHeader({ id: SessionId(id) });
    const { incarnation } = await persistence.create({ header });
    const session = new Session({
      header,
      incarnation,
      writer: persistenceWriter(persistence, SessionId(id)),
    });
    await session.append({ type: 'turn/start', data: {} });
    await session.append({ type: 'user/message', data: { content: 'interrupted', author: 'human' } });
  } finally {
    await persistence.close();
  }
}

type Finding = { sessionId: string; problem: string; repaired?: boolean };

describe('one writer per data folder (real strand processes)', () => {
  it('a second host on the folder is refused before it writes anything: exit 1, one line naming the first', async () => {
    const first = await serve();
    const before = snapshot(data);
    const second = await strandAsync(['serve', '--data', data, '--port', '0']);
    expect(second.code).toBe(1);
    expect(second.stdout).toBe('');
    const lines = second.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`is in use by \`strand serve\` (pid ${first.process.pid}, ${first.url})`);
    expect(snapshot(data)).toEqual(before);
    // Writers that cannot go through a host are told to stop it.
    const demo = await strandAsync(['demo', '--data', data]);
    expect(demo.code).toBe(1);
    expect(demo.stderr).toContain(`(pid ${first.process.pid}, ${first.url}); stop that host first`);
    expect(snapshot(data)).toEqual(before);
    // The first host is unharmed and still the one that answers.
    const listed = await strandAsync(['list', '--data', data, '--json']);
    expect(listed.code).toBe(0);
    expect(await stop(first.process)).toBe(0);
  }, 180_000);

  it('doctor --repair is refused while a host runs (log untouched) and repairs after it stops', async () => {
    await writeCrashedTurn('crashed');
    const host = await serve();
    const log = () => snapshot(path.join(data, 'sessions'));
    const before = log();
    const refused = await strandAsync(['doctor', '--repair', '--data', data]);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toContain(
      `\`strand serve\` (pid ${host.process.pid}, ${host.url}); stop that host first`,
    );
    expect(log()).toEqual(before);
    // Read-only doctor works beside the host: this turn is no run of the host's, so it is a crash.
    const beside = await strandAsync(['doctor', '--data', data, '--json']);
    expect(beside.code).toBe(0);
    expect((beside.json() as { findings: Finding[] }).findings).toEqual([
      expect.objectContaining({ sessionId: 'crashed', problem: 'open-turn' }),
    ]);

    expect(await stop(host.process)).toBe(0);
    const repaired = await strandAsync(['doctor', '--repair', '--data', data, '--json']);
    expect(repaired.code).toBe(0);
    expect((repaired.json() as { findings: Finding[] }).findings).toEqual([
      expect.objectContaining({ sessionId: 'crashed', problem: 'open-turn', repaired: true }),
    ]);
    const clean = await strandAsync(['doctor', '--data', data, '--json']);
    expect((clean.json() as { findings: Finding[] }).findings).toEqual([]);
  }, 180_000);

  it("a SIGKILLed host's lock is taken over by the next start, with a note naming it on stderr", async () => {
    const killed = await serve();
    killed.process.kill('SIGKILL');
    expect(await killed.process.exited).toBe(null);
    const next = await serve();
    expect(next.process.stderr).toContain(
      `took over the lock on ${data} from \`strand serve\` (pid ${killed.process.pid}, ${killed.url}), which is no longer running`,
    );
    const listed = await strandAsync(['list', '--data', data, '--json']);
    expect(listed.code).toBe(0);
    expect(await stop(next.process)).toBe(0);
  }, 180_000);

  it('strand follow on a folder a host holds follows through that host and prints live events', async () => {
    const host = await serve();
    const connection = connect(host.rpcUrl);
    try {
      const { id } = await connection.call('session.create', { prompt: 'first question' });
      const follow = startStrand(['follow', id, '--data', data, '--json']);
      running.push(follow);
      const lines = () =>
        follow.stdout
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as { seq: number; type: string; data: { content?: unknown } });
      await follow.until(() => lines().some((e) => e.type === 'turn/end'), 'the first turn ended');
      const marker = `live-${process.pid}`;
      await connection.call('session.prompt', { id, text: marker });
      await follow.until(
        () => lines().some((e) => e.type === 'user/message' && e.data.content === marker),
        'the live prompt arrived',
      );
      await follow.until(
        () => lines().filter((e) => e.type === 'turn/end').length === 2,
        'the live turn ended',
      );
      const seqs = lines().map((e) => e.seq);
      expect(seqs).toEqual(seqs.map((_, i) => seqs[0]! + i));
      expect(await stop(follow)).toBe(0);
    } finally {
      connection.close();
    }
  }, 180_000);

  it('read commands reach a holding host that requires a token through its 0600 token file', async () => {
    const host = await serve(['--token', 'not-guessable']);
    expect(statSync(path.join(data, 'strand-host.token')).mode & 0o777).toBe(0o600);
    // The token is required: a socket without it is refused at the upgrade.
    const refused = await new Promise<number>((resolve, reject) => {
      const socket = new WebSocket(host.rpcUrl);
      socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      socket.on('open', () => reject(new Error('opened without the token')));
      socket.on('error', () => undefined);
    });
    expect(refused).toBe(401);
    const listed = await strandAsync(['list', '--data', data, '--json']);
    expect(listed.code).toBe(0);
    expect(listed.json()).toEqual({ sessions: [] });
    // A token file this user cannot read (here: gone) is a clear error, not a hang.
    rmSync(path.join(data, 'strand-host.token'));
    const unauthorized = await strandAsync(['list', '--data', data]);
    expect(unauthorized.code).toBe(1);
    expect(unauthorized.stderr.trim()).toBe(
      `strand: the host holding ${data} (${host.url.split('/?')[0]}, pid ${host.process.pid}) refused the token (none found: pass --token)`,
    );
    expect((await strandAsync(['list', '--data', data, '--token', 'not-guessable'])).code).toBe(0);
    expect(await stop(host.process)).toBe(0);
    expect(readdirSync(data).filter((name) => name.startsWith('strand-host.token'))).toEqual([]);
  }, 180_000);

  it('a holder whose recorded host does not answer is a clear error for read commands, not a hang', async () => {
    const lock = await holdDataFolder(data, 'serve');
    try {
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const port = (closed.address() as AddressInfo).port;
      await new Promise((resolve) => closed.close(resolve));
      await lock.announceHost({ url: `http://127.0.0.1:${port}`, rpcUrl: `ws://127.0.0.1:${port}/rpc` });
      const run = await strandAsync(['list', '--data', data]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(
        `strand: the host holding ${data} (http://127.0.0.1:${port}, pid ${process.pid}) does not answer`,
      );
    } finally {
      await lock.release();
    }
  }, 180_000);

  it('read-only doctor reports a turn the live host is running as running, not as a crash', async () => {
    // A model endpoint that never answers keeps the host's turn running for as long as needed.
    const held: ServerResponse[] = [];
    let requested!: () => void;
    const asked = new Promise<void>((resolve) => (requested = resolve));
    const model = createServer((_req, res) => {
      held.push(res);
      requested();
    });
    await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`;
      const host = await serve(['--model', 'held', '--base-url', base], { OPENAI_API_KEY: 'test' });
      const connection = connect(host.rpcUrl);
      let id: string;
      try {
        ({ id } = await connection.call('session.create', { prompt: 'a long question' }));
        await asked;
      } finally {
        connection.close();
      }
      const doctor = await strandAsync(['doctor', '--data', data, '--json']);
      expect(doctor.code).toBe(0);
      const { findings } = doctor.json() as { findings: (Finding & { detail: string })[] };
      expect(findings).toEqual([
        {
          sessionId: id,
          problem: 'running-turn',
          detail: `a turn the host at ${host.url} is running (not a crash)`,
        },
      ]);
      // The same open turn once the host is gone (SIGKILL) is what a crash left.
      host.process.kill('SIGKILL');
      await host.process.exited;
      const after = await strandAsync(['doctor', '--data', data, '--json']);
      expect((after.json() as { findings: Finding[] }).findings).toEqual([
        expect.objectContaining({ sessionId: id, problem: 'open-turn' }),
      ]);
    } finally {
      for (const res of held) res.destroy();
      await new Promise((resolve) => model.close(resolve));
    }
  }, 180_000);

  it('while an import holds the folder, read commands run at once and read the disk; writers are refused', async () => {
    await writeCrashedTurn('before-import');
    const lock = await holdDataFolder(data, 'import');
    const persistence = await openJsonlPersistence({ root: data });
    try {
      // The holder keeps writing while the readers run.
      const header = newSessionHeader({ id: SessionId('importing') });
      const { incarnation } = await persistence.create({ header });
      const session = new Session({ header, incarnation, writer: persistenceWriter(persistence, header.id) });
      let writing = true;
      const writes = (async () => {
        for (let i = 0; writing; i++)
          await session.append({ type: 'user/message', data: { content: `imported ${i}`, author: 'human' } });
      })();
      const [list, show, search, agents, serveRefused, importRefused] = await Promise.all([
        strandAsync(['list', '--data', data, '--json']),
        strandAsync(['show', 'before-import', '--data', data, '--json']),
        strandAsync(['search', 'interrupted', '--data', data, '--json']),
        strandAsync(['agents', 'before-import', '--data', data, '--json']),
        strandAsync(['serve', '--data', data, '--port', '0']),
        strandAsync(['import', 'codex', data, '--data', data]),
      ]);
      writing = false;
      await writes;
      expect(list.code, list.stderr).toBe(0);
      const ids = (list.json() as { sessions: { id: string }[] }).sessions.map((s) => s.id);
      expect(ids).toContain('before-import');
      expect(show.code, show.stderr).toBe(0);
      // The two stored events: a reader shows what the disk holds, never the crash closer a
      // repairing load would write (a reader writes nothing).
      expect(show.json()).toMatchObject({ header: { id: 'before-import' }, cursor: 2 });
      expect(search.code, search.stderr).toBe(0);
      expect(agents.code, agents.stderr).toBe(0);
      expect(agents.json()).toEqual({ rows: [] });
      const holder = `is in use by \`strand import\` (pid ${process.pid}); wait for it to finish`;
      expect(serveRefused.code).toBe(1);
      expect(serveRefused.stderr).toContain(holder);
      expect(importRefused.code).toBe(1);
      expect(importRefused.stderr).toContain(holder);
    } finally {
      await persistence.close();
      await lock.release();
    }
  }, 180_000);
});
