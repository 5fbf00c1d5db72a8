import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJsonlPersistence, persistenceWriter } from '@strand/persistence';
import { Session, SessionId, newSessionHeader } from '@strand/session';
import { ID_COLUMN_MAX } from './output/session-text.js';
import { STRAND_BIN, startServe, startStrand, strand, strandAsync } from './testing/strand-process.js';

/**
 * `strand` as a Unix tool, in real processes of the bundled CLI: a reader that closes the pipe
 * early, a port with nothing listening, a port that never answers, a host that requires a token,
 * usage errors, Ctrl-C during follow.
 */
let data: string;
const LONG_ID = `session-with-a-very-long-identifier-${'x'.repeat(60)}-end`;

beforeAll(async () => {
  data = mkdtempSync(path.join(tmpdir(), 'strand-unix-'));
  const persistence = await openJsonlPersistence({ root: data });
  const sessions = [
    { id: LONG_ID, createdAt: 3_000, title: 'A session whose id is longer than any column' },
    { id: 'short', createdAt: 2_000, title: '中文标题 wide characters' },
    { id: 'plain', createdAt: 1_000, title: 'Plain title' },
  ];
  for (const { id, createdAt, title } of sessions) {
    const header = newSessionHeader({ id: SessionId(id), createdAt, agentPreset: 'general' });
    const { incarnation } = await persistence.create({ header });
    const session = new Session({ header, incarnation, writer: persistenceWriter(persistence, header.id) });
    // Timed at creation, not by the wall clock: the list orders by the last prompt's time, and
    // the rows must come in one known order (newest created first here).
    const time = createdAt;
    await session.append([
      { type: 'turn/start', time, data: {} },
      { type: 'user/message', time, data: { content: `hello from ${id}`, author: 'human' } },
      { type: 'session/title', time, data: { title } },
      { type: 'assistant/message', time, data: { content: 'hi', usage: { input: 1234, output: 56 } } },
      { type: 'turn/end', time, data: { reason: 'completed' } },
    ]);
  }
  await persistence.close();
}, 120_000);

afterAll(() => rmSync(data, { recursive: true, force: true }));

/** Runs `strand` with its stdout closed by the reader before the command writes a byte. */
function withClosedStdout(args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [STRAND_BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

/** A TCP port nobody listens on (bound once, then closed). */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function oneLine(stderr: string): string {
  const lines = stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  return lines[0]!;
}

describe('a reader that closes the pipe early', () => {
  it.each([
    [['list', '--data', '<data>']],
    [['show', 'plain', '--data', '<data>']],
    [['list', '--data', '<data>', '--json']],
    [['--help']],
  ])('strand %j ends quietly with status 0', async (args) => {
    const run = await withClosedStdout(args.map((a) => (a === '<data>' ? data : a)));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
  });

  it('`strand list | head -n 1` prints the first row and no stack trace', async () => {
    const child = spawn(
      'sh',
      ['-c', `"${process.execPath}" "${STRAND_BIN}" list --data "${data}" | head -n 1`],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stdout.trim().split('\n')).toEqual([expect.stringMatching(/^ID\s+CREATED/)]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});

describe('--url to a host that is not there or refuses', () => {
  it('a port with nothing listening is one line naming the address, exit 1', async () => {
    const url = `http://127.0.0.1:${await deadPort()}`;
    const run = await strandAsync(['list', '--url', url]);
    expect(oneLine(run.stderr)).toMatch(
      new RegExp(`^strand: no Strand host answers at ${url} \\(.*ECONNREFUSED`),
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
  });

  it('a port that accepts but never answers fails once the handshake times out, exit 1', async () => {
    const sockets = new Set<Socket>();
    const silent: Server = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    try {
      const run = await strandAsync(['show', 'plain', '--url', `http://127.0.0.1:${port}`]);
      expect(oneLine(run.stderr)).toMatch(/no Strand host answers at .*timed out/);
      expect(run.code).toBe(1);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('a host requiring a token refuses none and a wrong one on one line (exit 1), and answers the right one', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'strand-unix-host-'));
    const served = await startServe(empty, ['--require-token']);
    try {
      const { token } = JSON.parse(served.process.stdout.split('\n')[0]!) as { token: string };
      const origin = new URL(served.url).origin;
      const none = await strandAsync(['list', '--url', origin]);
      expect(oneLine(none.stderr)).toBe(
        `strand: the host at ${origin} refused the token (it requires one: pass --token)`,
      );
      expect(none.code).toBe(1);
      const wrong = await strandAsync(['list', '--url', origin, '--token', 'not-the-token']);
      expect(oneLine(wrong.stderr)).toBe(`strand: the host at ${origin} refused the token`);
      expect(wrong.code).toBe(1);
      const right = await strandAsync(['list', '--url', origin, '--token', token, '--json']);
      expect(right.code).toBe(0);
      expect(right.json()).toEqual({ sessions: [] });
    } finally {
      served.process.kill('SIGINT');
      await served.process.exited;
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('start-up loads only what the command needs', () => {
  /** The files a run of `strand` loaded as ES modules (Node's own `NODE_DEBUG=esm` log). */
  async function loadedModules(args: readonly string[]): Promise<string[]> {
    const run = await strandAsync(args, { NODE_DEBUG: 'esm' });
    const root = path.resolve(path.dirname(STRAND_BIN), '..', '..');
    const urls = new Set([...run.stderr.matchAll(/file:\/\/(\/[^\s'",]+)/g)].map((m) => m[1]!));
    return [...urls].map((file) => path.relative(root, file)).sort();
  }

  it('strand --help loads the bundle entry and commander, no command and no TypeScript loader', async () => {
    const loaded = await loadedModules(['--help']);
    expect(loaded).toContain('cli/dist/main.js');
    expect(loaded.filter((file) => file.startsWith('cli/dist/'))).toEqual(['cli/dist/main.js']);
    expect(loaded.filter((file) => file.includes('node_modules/') && !file.includes('/commander/'))).toEqual(
      [],
    );
  });

  it('strand list loads the read path, not serve, import, export, tsx or the test libraries', async () => {
    const loaded = await loadedModules(['list', '--data', data]);
    expect(loaded.some((file) => /^cli\/dist\/read-commands-/.test(file))).toBe(true);
    expect(
      loaded.filter((file) => /dist\/(serve|import|demo|doctor)-|tsx|vitest|fast-check/.test(file)),
    ).toEqual([]);
    // The export renderers (Markdown, highlight.js's languages) and the harness writers load on
    // the first export: at every start they cost `strand list` ~50 ms (issue 46's bench:cli).
    expect(
      loaded.filter((file) => /node_modules\/(marked|highlight\.js)\/|dist\/harness-writer-/.test(file)),
    ).toEqual([]);
  });
});

describe('strand serve after an install', () => {
  it('serves the web UI the install step built, beside /rpc', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'strand-unix-web-'));
    const served = await startServe(empty);
    try {
      const page = await fetch(`${served.url}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<title>Strand</title>');
    } finally {
      served.process.kill('SIGINT');
      expect(await served.process.exited).toBe(0);
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('usage errors are one line and exit 2', () => {
  it.each([
    [['list', '--limit', '0'], /--limit <n>.*'0' is invalid\. expected an integer from 1 to 100000/],
    [['list', '--limit', '2.5'], /'2\.5' is invalid\. expected an integer from 1 to 100000/],
    [['list', '--limit', 'many'], /'many' is invalid/],
    [['search', 'x', '--limit', '101'], /expected an integer from 1 to 100\b/],
    [['show', 'plain', '--events', '-1'], /--events <n>.*expected an integer from 0 to 10000/],
    [['list', '--url', 'not a url'], /--url <url>.*expected a URL/],
    // mcp and acp share the read commands' target options, checks included.
    [['mcp', '--url', 'not a url'], /--url <url>.*expected a URL/],
    [['acp', '--url', 'ftp://host'], /--url <url>.*expected an http\(s\):\/\/ or ws\(s\):\/\/ URL/],
    [['list', '--bogus'], /unknown option '--bogus'/],
    [['lsit'], /unknown command 'lsit'.*Did you mean list\?/],
  ])('strand %j', (args, message) => {
    const run = strand(...args);
    expect(oneLine(run.stderr)).toMatch(message);
    expect(run.stderr).toMatch(/^strand: /);
    expect(run.code).toBe(2);
  });
});

describe('Ctrl-C during follow', () => {
  it('ends the follow cleanly: the snapshot printed, nothing on stderr, exit 0', async () => {
    const follow = startStrand(['follow', 'plain', '--data', data]);
    await follow.until((out) => out.includes('turn/end'), 'follow printed the snapshot');
    follow.kill('SIGINT');
    expect(await follow.exited).toBe(0);
    expect(follow.stderr).toBe('');
    expect(follow.stdout).toContain('Plain title');
  });
});

describe('output a person reads', () => {
  it('list aligns its columns whatever the ids and titles, cuts a long id with …, dates in local time', () => {
    const run = strand('list', '--data', data);
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^ID\s+CREATED\s+STATE\s+TITLE$/);
    const created = lines[0]!.indexOf('CREATED');
    // Every row's date starts under the CREATED heading: one long id shifted nothing.
    for (const line of lines.slice(1)) expect(line.indexOf('1970-01-0')).toBe(created);
    expect(lines[1]!.startsWith(`${LONG_ID.slice(0, ID_COLUMN_MAX - 1)}…  1970-01-01`)).toBe(true);
    expect(lines[1]).not.toContain(LONG_ID);
    expect(lines[2]).toContain('中文标题 wide characters');
  });

  it('dates follow the time zone (TZ), not UTC', async () => {
    const tokyo = await strandAsync(['list', '--data', data], { TZ: 'Asia/Tokyo' });
    expect(tokyo.stdout).toMatch(/^plain\s+1970-01-01 09:00\s+Plain title$/m);
    const utc = await strandAsync(['list', '--data', data], { TZ: 'UTC' });
    expect(utc.stdout).toMatch(/^plain\s+1970-01-01 00:00\s+Plain title$/m);
  });

  it('--json keeps the exact data: whole ids and epoch milliseconds', () => {
    const run = strand('list', '--data', data, '--json');
    const { sessions } = run.json() as { sessions: { id: string; header: { createdAt: number } }[] };
    expect(sessions.map((s) => [s.id, s.header.createdAt])).toEqual([
      [LONG_ID, 3_000],
      ['short', 2_000],
      ['plain', 1_000],
    ]);
  });

  it('show prints projections as readable lines, not JSON', async () => {
    const run = await strandAsync(['show', 'plain', '--data', data], { TZ: 'UTC' });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^ {2}usage\s+1,234 in · 56 out tokens$/m);
    expect(run.stdout).toMatch(/^ {2}title\s+Plain title$/m);
    expect(run.stdout).toMatch(/^plain {2}created 1970-01-01 00:00$/m);
    expect(run.stdout).not.toMatch(/[{}]/);
  });

  it('colours only on a terminal, and not with NO_COLOR; never on a pipe', async () => {
    // util-linux `script` gives the command a pseudo-terminal as a person's shell would.
    const inTerminal = (env: NodeJS.ProcessEnv): Promise<string> =>
      new Promise((resolve) => {
        const child = spawn(
          'script',
          ['-qec', `"${process.execPath}" "${STRAND_BIN}" list --data "${data}"`, '/dev/null'],
          { stdio: ['ignore', 'pipe', 'inherit'], env: { ...env, TERM: 'xterm-256color' } },
        );
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        child.on('close', () => resolve(out));
      });
    // A person's terminal: no colour overrides, and not a CI job (Node counts a CI terminal as
    // monochrome).
    const { NO_COLOR: _noColor, FORCE_COLOR: _forceColor, CI: _ci, ...plainEnv } = process.env;
    const coloured = await inTerminal(plainEnv);
    expect(coloured).toContain('\u001b[1mID');
    const noColor = await inTerminal({ ...plainEnv, NO_COLOR: '1' });
    expect(noColor).toContain('ID');
    expect(noColor).not.toContain('\u001b[');
    expect(strand('list', '--data', data).stdout).not.toContain('\u001b[');
  });
});
