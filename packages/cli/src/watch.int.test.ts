import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { Harness } from '@strand/import';
import { codexRollout } from '@strand/import/testing/synthetic';
import type { SessionListRow } from '@strand/protocol';
import { eventually } from '@strand/test-support';
import { RpcTestClient } from '@strand/runtime/testing';
import { follow, listed, oneShot, plain, serveWatching, storeOf } from './testing/serve-watch.js';
import { strandAsync, type StrandProcess } from './testing/strand-process.js';

/**
 * `strand serve --watch`, end to end: a real host process follows transcript files while real
 * writer processes append to them in each harness's format, a real follower is connected over
 * the wire, and what it received equals a one-shot `strand import` of the finished files. The
 * host is also killed (SIGKILL) mid-ingest and restarted: the data folder then equals a one-shot
 * import exactly.
 */

const IMPORT_SRC = path.resolve(fileURLToPath(import.meta.url), '../../../import/src');
const CLAUDE_SID = '5b1c2d3e-4f50-4617-8829-3a4b5c6d7e8f';
const CLAUDE_DIR = path.join(IMPORT_SRC, 'claude-code/fixtures/subagents-layout/-home-dev-app');
const GEMINI_FILE = path.join(IMPORT_SRC, 'gemini/fixtures/rewind/session-2026-05-01T08-00-7e7e7e7e.jsonl');
const CODEX_FILE = path.join(
  IMPORT_SRC,
  'codex/fixtures/spawn-fork/rollout-2026-02-01T10-00-00-01a00000-0000-7000-8000-000000000001.jsonl',
);

/**
 * A writer process: appends the lines `[from, to)` of `source` to `file`, each in two writes (the
 * first half of the line, a pause, the rest with its newline), pausing between lines. The host
 * must never map a half line.
 */
const WRITER = `
const fs = require('node:fs');
const [file, source, from, to, pause] = process.argv.slice(1);
const lines = fs.readFileSync(source, 'utf8').split('\\n').filter((l) => l.length > 0).slice(Number(from), Number(to));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
(async () => {
  for (const line of lines) {
    const half = Math.floor(line.length / 2);
    fs.appendFileSync(file, line.slice(0, half));
    await sleep(Number(pause));
    fs.appendFileSync(file, line.slice(half) + '\\n');
    await sleep(Number(pause));
  }
})();
`;

function appendLines(file: string, source: string, from: number, to: number, pauseMs = 15): Promise<void> {
  const child = spawn(
    process.execPath,
    ['-e', WRITER, file, source, String(from), String(to), String(pauseMs)],
    {
      stdio: 'ignore',
    },
  );
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`writer exited ${code}`))));
  });
}

const linesOf = (file: string): string[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.length > 0);

let roots: string[] = [];
let hosts: StrandProcess[] = [];
let clients: RpcTestClient[] = [];
afterEach(async () => {
  for (const c of clients) c.close();
  for (const h of hosts) h.kill('SIGKILL');
  await Promise.all(hosts.map((h) => h.exited));
  for (const r of roots) rmSync(r, { recursive: true, force: true });
  roots = [];
  hosts = [];
  clients = [];
});

async function serve(
  harness: Harness,
  src: string,
  data: string,
): Promise<{ host: StrandProcess; rpcUrl: string }> {
  const served = await serveWatching(harness, src, data);
  hosts.push(served.host);
  return served;
}

function folders(): { src: string; data: string; fresh: string } {
  const root = mkdtempSync(path.join(tmpdir(), 'strand-watch-'));
  roots.push(root);
  const out = { src: path.join(root, 'src'), data: path.join(root, 'data'), fresh: path.join(root, 'fresh') };
  mkdirSync(out.src, { recursive: true });
  return out;
}

describe('strand serve --watch', () => {
  const cases: {
    harness: Harness;
    id: string;
    source: string;
    at: (src: string) => string;
    first: number;
  }[] = [
    {
      harness: 'claude-code',
      id: `claude-${CLAUDE_SID}`,
      source: path.join(CLAUDE_DIR, `${CLAUDE_SID}.jsonl`),
      at: (src) => path.join(src, '-home-dev-app', `${CLAUDE_SID}.jsonl`),
      first: 3,
    },
    {
      harness: 'codex',
      id: 'codex-01a00000-0000-7000-8000-000000000001',
      source: CODEX_FILE,
      at: (src) => path.join(src, '2026', '02', '01', path.basename(CODEX_FILE)),
      first: 4,
    },
    {
      harness: 'gemini',
      id: 'gemini-7e7e7e7e-0000-4000-8000-000000000001',
      source: GEMINI_FILE,
      at: (src) => path.join(src, 'site', 'chats', path.basename(GEMINI_FILE)),
      first: 2,
    },
  ];

  for (const c of cases) {
    it(`${c.harness}: lines a writer appends reach a connected follower, and equal a one-shot import`, async () => {
      const { src, data, fresh } = folders();
      const file = c.at(src);
      mkdirSync(path.dirname(file), { recursive: true });
      const lines = linesOf(c.source);
      writeFileSync(file, lines.slice(0, c.first).join('\n') + '\n');
      const { rpcUrl } = await serve(c.harness, src, data);
      const client = await RpcTestClient.open(rpcUrl);
      clients.push(client);
      await eventually(
        async () => (await listed(client)).some((r) => r.id === c.id),
        `session ${c.id} listed`,
      );
      const followed = await follow(client, c.id);
      await appendLines(file, c.source, c.first, lines.length);
      if (c.harness === 'claude-code') {
        // A subagent file appearing under the watched parent joins its tree live.
        cpSync(
          path.join(CLAUDE_DIR, CLAUDE_SID, 'subagents'),
          path.join(path.dirname(file), CLAUDE_SID, 'subagents'),
          {
            recursive: true,
          },
        );
      }
      const expected = await oneShot(c.harness, src, fresh);
      const want = expected.get(c.id)!.events;
      await eventually(() => followed.events().length >= want.length, 'the follower to receive every event');
      expect(plain(followed.events())).toEqual(want);
      if (c.harness === 'claude-code') {
        await eventually(
          async () => (await listed(client)).filter((r) => r.header.parentSession === c.id).length === 2,
          'both subagent children listed under the parent',
        );
      }
    });
  }

  it('the sessions a catch-up imported are listed with their titles, as after `strand import` (rows filled once serving)', async () => {
    const { src, data, fresh } = folders();
    // Long enough that its stored log is past the host's small-log size, so the list reads only
    // cache rows for it (a small one is observed at list time, rows or not).
    const sid = '01d00000-0000-7000-8000-000000000001';
    const id = `codex-${sid}`;
    const file = path.join(src, '2026', '02', '01', `rollout-2026-02-01T10-00-00-${sid}.jsonl`);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, codexRollout({ id: sid, turns: 800, outputChars: 4_000 }));
    // What the one-shot command lists: `strand import` writes the rows before it exits.
    expect((await strandAsync(['import', 'codex', src, '--data', fresh, '--json'])).code).toBe(0);
    const listing = await strandAsync(['list', '--data', fresh, '--json']);
    const title = (listing.json() as { sessions: SessionListRow[] }).sessions.find((r) => r.id === id)?.hints
      ?.values.title;
    expect(title).toBeDefined();
    const { rpcUrl } = await serve('codex', src, data);
    const client = await RpcTestClient.open(rpcUrl);
    clients.push(client);
    await eventually(
      async () => (await listed(client)).find((r) => r.id === id)?.hints?.values.title !== undefined,
      'the title hint',
    );
    expect((await listed(client)).find((r) => r.id === id)?.hints?.values.title).toEqual(title);
  });

  it('killed (SIGKILL) mid-ingest, appended to, restarted: the data folder equals a one-shot import', async () => {
    const { src, data, fresh } = folders();
    const file = path.join(src, '2026', '02', '01', path.basename(CODEX_FILE));
    mkdirSync(path.dirname(file), { recursive: true });
    const lines = linesOf(CODEX_FILE);
    writeFileSync(file, lines.slice(0, 3).join('\n') + '\n');
    const first = await serve('codex', src, data);
    const client = await RpcTestClient.open(first.rpcUrl);
    clients.push(client);
    const id = 'codex-01a00000-0000-7000-8000-000000000001';
    await eventually(async () => (await listed(client)).some((r) => r.id === id), 'the session listed');
    const followed = await follow(client, id);
    const half = Math.floor(lines.length / 2);
    const writing = appendLines(file, CODEX_FILE, 3, lines.length, 20);
    // Kill the host once it has ingested some of the appended lines, while the writer goes on.
    const seen = followed.events().length;
    await eventually(() => followed.events().length > seen, 'some appended events to arrive');
    first.host.kill('SIGKILL');
    expect(await first.host.exited).toBeNull();
    await writing;
    expect(linesOf(file).length).toBeGreaterThan(half);
    const second = await serve('codex', src, data);
    second.host.kill('SIGTERM');
    await second.host.exited;
    expect(await storeOf(data)).toEqual(await oneShot('codex', src, fresh));
  });
});
