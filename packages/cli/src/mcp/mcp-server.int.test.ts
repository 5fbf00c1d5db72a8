import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { StrandConnection } from '@strand/client';
import { renderAgentList } from '@strand/subagent';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startServe, strand, strandCommandLine } from '../testing/strand-process.js';
import {
  CODEX_CHILD,
  CODEX_PARENT,
  mcpCorpus,
  STRAND_TOOLS,
  toolText as text,
} from '../testing/mcp-corpus.js';
import { DEMO_COMMON_WORD } from '../commands/demo-text.js';
import manifest from '../../package.json' with { type: 'json' };

/**
 * The real `strand mcp` child process, driven over stdio by the MCP SDK's own client, over a real
 * data folder: the demo corpus (Strand's own sessions, a subagent tree with a corrupt child, a
 * 50k-event session) plus the Codex fixtures imported with `strand import`.
 */

let root: string;
let data: string;
let client: Client;
let before: Record<string, string>;

async function connectMcp(args: readonly string[]): Promise<Client> {
  const line = strandCommandLine(['mcp', ...args]);
  const transport = new StdioClientTransport({ ...line, stderr: 'pipe' });
  const mcp = new Client({ name: 'strand-mcp-test', version: '1.0.0' });
  await mcp.connect(transport);
  return mcp;
}

async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** The seqs a rendered transcript shows, in order. */
function seqsOf(transcript: string): number[] {
  return [...transcript.matchAll(/^\[(\d+)\]/gm)].map((m) => Number(m[1]));
}

/** Every session log (not the derived SQLite files) with a digest of its bytes. */
function logs(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (sub: string): void => {
    for (const name of readdirSync(path.join(dir, sub))) {
      const rel = path.join(sub, name);
      if (statSync(path.join(dir, rel)).isDirectory()) walk(rel);
      else if (!/\.db(-wal|-shm|-journal)?$|^strand(-host)?\.(lock|lock\.json|token)$/.test(name))
        files[rel] = createHash('sha256')
          .update(readFileSync(path.join(dir, rel)))
          .digest('hex');
    }
  };
  walk('');
  return files;
}

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'strand-mcp-'));
  data = mcpCorpus(root, { demo: true });
  before = logs(data);
  client = await connectMcp(['--data', data]);
}, 300_000);

afterAll(async () => {
  await client?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('strand mcp over stdio (the SDK client, a real folder)', () => {
  it('offers exactly the five read-only tools and the session resources', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(STRAND_TOOLS);
    for (const tool of tools) expect(tool.annotations?.readOnlyHint).toBe(true);
    const search = tools.find((t) => t.name === 'search_sessions')!;
    expect(search.inputSchema.required).toEqual(['query']);
    expect(Object.keys(search.inputSchema.properties ?? {}).sort()).toEqual([
      'limit',
      'project',
      'query',
      'source',
    ]);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['strand://sessions/{id}']);
  });

  it("list_sessions lists in the host's order (most recently active first) with title, project and where each came from", async () => {
    const listed = text(await call('list_sessions', {}));
    expect(listed.split('\n')[0]).toBe('14 sessions, most recently active first:');
    const ids = listed
      .split('\n')
      .slice(1)
      .map((line) => line.split('  ')[0]);
    expect(ids).toHaveLength(14);
    expect(new Set(ids).size).toBe(14);
    expect(ids).toEqual(expect.arrayContaining(['demo-live', CODEX_CHILD, CODEX_PARENT]));
    expect(listed).toMatch(
      /^demo-1 {2}2026-11-01 00:00 {2}"Refactor the persistence layer" {2}project="\/home\/demo\/strand" {2}from=strand$/m,
    );
    expect(listed).toContain(
      `${CODEX_CHILD}  2026-02-01 10:00  "Write tests for the /health endpoint."  project="/home/dev/svc"  from=codex (subagent of ${CODEX_PARENT})`,
    );
  });

  it('list_sessions pages: each answer ends with the cursor of the next, and the pages make the whole list', async () => {
    const idsOf = (listed: string) =>
      listed
        .split('\n')
        .slice(1)
        .filter((l) => !l.startsWith('(more follow'))
        .map((l) => l.split('  ')[0] ?? '');
    const whole = idsOf(text(await call('list_sessions', {})));
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const answer = text(
        await call('list_sessions', { limit: 4, ...(cursor === undefined ? {} : { cursor }) }),
      );
      const ids = idsOf(answer);
      expect(ids.length).toBeLessThanOrEqual(4);
      seen.push(...ids);
      cursor = /^\(more follow: call list_sessions with cursor ("[^"]+")/m.exec(answer)?.[1];
      cursor = cursor === undefined ? undefined : (JSON.parse(cursor) as string);
      pages++;
    } while (cursor !== undefined && pages < 10);
    expect(pages).toBe(Math.ceil(whole.length / 4));
    expect(seen).toEqual(whole);
    // A folder name the host cannot narrow by pages too: two codex sessions, one per page.
    const first = text(await call('list_sessions', { project: 'svc', limit: 1 }));
    const next = /cursor ("[^"]+")/.exec(first)?.[1];
    expect(next).toBeDefined();
    const second = text(
      await call('list_sessions', { project: 'svc', limit: 1, cursor: JSON.parse(next!) as string }),
    );
    expect([...idsOf(first), ...idsOf(second)].sort()).toEqual([CODEX_CHILD, CODEX_PARENT].sort());
  });

  it('list_sessions filters by source harness and by project (path or folder name)', async () => {
    const idsOf = (listed: string) =>
      listed
        .split('\n')
        .slice(1)
        .map((l) => l.split('  ')[0]);
    const all = idsOf(text(await call('list_sessions', {})));
    const codex = text(await call('list_sessions', { source: 'codex' }));
    // The matching rows, in the order of the whole list.
    expect(idsOf(codex)).toEqual(all.filter((id) => id === CODEX_CHILD || id === CODEX_PARENT));
    expect(idsOf(codex)).toHaveLength(2);
    expect(text(await call('list_sessions', { project: 'svc' }))).toBe(codex);
    expect(text(await call('list_sessions', { project: '/home/dev/svc/' }))).toBe(codex);
    expect(text(await call('list_sessions', { source: 'gemini' }))).toBe('No sessions.');
    expect(text(await call('list_sessions', { source: 'strand', project: 'svc' }))).toBe('No sessions.');
  });

  it('search_sessions returns titles, ids and snippets with their seqs, and applies the filters', async () => {
    const word = DEMO_COMMON_WORD;
    const found = text(await call('search_sessions', { query: word, limit: 3 }));
    const heads = found.split('\n\n').map((block) => block.split('\n')[0]!);
    expect(heads).toHaveLength(3);
    for (const block of found.split('\n\n'))
      expect(block).toMatch(new RegExp(`\\n {2}seq \\d+: .*\\[${word}\\]`));
    const health = text(await call('search_sessions', { query: 'health', source: 'codex' }));
    expect(health).toContain(`${CODEX_PARENT}  "Add a health endpoint"  project="/home/dev/svc"  from=codex`);
    expect(health).toMatch(/ {2}seq \d+: .*\[health\]/);
    expect(text(await call('search_sessions', { query: 'health', source: 'strand' }))).not.toContain(
      'codex-',
    );
    expect(text(await call('search_sessions', { query: 'zzz-no-such-word' }))).toBe(
      'No matches for "zzz-no-such-word".',
    );
  });

  it('read_session renders the last N events with seqs and says how to read on', async () => {
    const { cursor } = strand('show', 'demo-long', '--events', '0', '--data', data, '--json').json() as {
      cursor: number;
    };
    const tail = text(await call('read_session', { id: 'demo-long', last: 30 }));
    expect(tail.split('\n')[0]).toBe('Session demo-long — "A very long session (50k+ events)"');
    expect(tail).toContain(`${cursor} events`);
    const seqs = seqsOf(tail);
    expect(seqs.at(-1)).toBe(cursor - 1);
    expect(seqs[0]).toBeGreaterThanOrEqual(cursor - 30);
    expect(tail).toContain(
      `Earlier: read_session {"id": "demo-long", "fromSeq": ${cursor - 130}, "toSeq": ${cursor - 31}}`,
    );
    expect(tail).not.toContain('Later:');
  }, 120_000);

  it('read_session reads a seq range, both ends included, at most 200 events', async () => {
    const range = text(await call('read_session', { id: CODEX_PARENT, fromSeq: 2, toSeq: 4 }));
    expect(seqsOf(range)).toEqual([2, 3, 4]);
    expect(range).toContain('[3] title: "Add a health endpoint"');
    expect(range).toContain('[4] user:\nAdd a health endpoint');
    expect(range).toContain(`Later: read_session {"id": "${CODEX_PARENT}", "fromSeq": 5, "toSeq": 25}`);
    const wide = text(await call('read_session', { id: 'demo-long', fromSeq: 1000, toSeq: 5000 }));
    const seqs = seqsOf(wide);
    // Seq 1000 may be a step (steps carry no text and are not shown); the window still starts there.
    expect(wide).toContain('Shown: seqs 1000–');
    expect(seqs[0]).toBeGreaterThanOrEqual(1000);
    expect(seqs.at(-1)!).toBeLessThanOrEqual(1199);
    expect(wide).toMatch(
      new RegExp(`Later: read_session \\{"id": "demo-long", "fromSeq": ${seqs.at(-1)! + 1},`),
    );
  });

  it('usage_summary answers the figures strand usage gives, as the same table', async () => {
    const cli = strand('usage', '--data', data, '--by', 'harness', '--json');
    expect(cli.code, cli.stderr).toBe(0);
    const { totals, rows } = JSON.parse(cli.stdout) as {
      totals: { totalTokens: number };
      rows: { key: string; totalTokens: number }[];
    };
    // The demo corpus and the imported Codex sessions both used tokens.
    expect(rows.map((r) => r.key).sort()).toEqual(['codex', 'strand']);
    const table = text(await call('usage_summary', { by: 'harness' }));
    const total = table.split('\n').find((line) => line.startsWith('Total'))!;
    expect(total.split(/\s{2,}/)[5]).toBe(totals.totalTokens.toLocaleString('en-US'));
    for (const row of rows) expect(table).toMatch(new RegExp(`^${row.key}\\s`, 'm'));
    expect(text(await call('usage_summary', { by: 'day', since: '2000-01-01', until: '2000-01-01' }))).toBe(
      'No usage recorded.',
    );
  });

  it('list_agents renders the rows exactly as the list_agents agent tool does (the rows strand agents lists)', async () => {
    for (const [args, cli, scope] of [
      [{ id: 'demo-1' }, ['agents', 'demo-1'], 'children'],
      [{ id: 'demo-1', descendants: true }, ['agents', 'demo-1', '--descendants'], 'descendants'],
      [{ id: CODEX_PARENT }, ['agents', CODEX_PARENT], 'children'],
    ] as const) {
      const rendered = text(await call('list_agents', args));
      // `strand agents` prints a table for people; its --json rows, rendered by the agent tool's
      // renderer, are what a model must read.
      const { rows } = strand(...cli, '--data', data, '--json').json() as {
        rows: Parameters<typeof renderAgentList>[0];
      };
      expect(rendered).toBe(renderAgentList(rows, scope));
    }
    const tree = text(await call('list_agents', { id: 'demo-1', descendants: true }));
    expect(tree).toContain('demo-1-fact-checker');
    expect(tree).toContain('diagnostic=corrupt');
  }, 120_000);

  it('reads a session as the resource strand://sessions/<id>', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toContain(`strand://sessions/${CODEX_PARENT}`);
    expect(resources.find((r) => r.uri === 'strand://sessions/demo-1')?.name).toBe(
      'Refactor the persistence layer',
    );
    const { contents } = await client.readResource({ uri: `strand://sessions/${CODEX_PARENT}` });
    expect(contents).toHaveLength(1);
    const content = contents[0]! as { mimeType?: string; text?: string };
    expect(content.mimeType).toBe('text/plain');
    expect(content.text?.split('\n')[0]).toBe(`Session ${CODEX_PARENT} — "Add a health endpoint"`);
    expect(seqsOf(content.text ?? '')[0]).toBe(0);
  });

  it('unknown ids and bad windows are tool errors carrying Strand stable codes', async () => {
    for (const name of ['read_session', 'list_agents']) {
      const failed = await call(name, { id: 'no-such-session' });
      expect(failed.isError).toBe(true);
      expect(text(failed)).toMatch(/^SESSION_QUERY_NOT_FOUND: /);
      expect(failed.structuredContent).toMatchObject({ error: { code: 'SESSION_QUERY_NOT_FOUND' } });
    }
    const backwards = await call('read_session', { id: 'demo-1', fromSeq: 9, toSeq: 3 });
    expect(backwards.isError).toBe(true);
    expect(text(backwards)).toBe('CLI_MCP_ARGUMENTS_INVALID: fromSeq 9 is after toSeq 3');
    const both = await call('read_session', { id: 'demo-1', last: 5, fromSeq: 3 });
    expect(text(both)).toMatch(/^CLI_MCP_ARGUMENTS_INVALID: /);
    const error = await client
      .readResource({ uri: 'strand://sessions/no-such-session' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32002);
    expect((error as McpError).message).toContain('SESSION_QUERY_NOT_FOUND');
  });

  it('never writes a session log of the folder it reads', () => {
    expect(logs(data)).toEqual(before);
  });
});

describe('strand mcp beside a host holding the folder', () => {
  it('reads through that host (its token file), and a wrong token is refused by the host', async () => {
    // Its own copy of the folder: the session this test creates must not reach the other tests,
    // whatever order they run in.
    const held = path.join(root, 'held');
    cpSync(data, held, { recursive: true });
    const host = await startServe(held, ['--token', `mcp-test-${process.pid}`]);
    const connection = new StrandConnection({
      url: host.rpcUrl,
      WebSocket,
      token: `mcp-test-${process.pid}`,
    });
    const opened: Client[] = [];
    try {
      const { id } = await connection.call('session.create', { prompt: 'a question for the holding host' });
      const mcp = await connectMcp(['--data', held]);
      opened.push(mcp);
      const listed = text(
        (await mcp.callTool({ name: 'list_sessions', arguments: { limit: 1 } })) as CallToolResult,
      );
      expect(listed.split('\n')[1]).toMatch(new RegExp(`^${id} .*"a question for the holding host"`));
      // Only the host checks tokens: a refusal proves the read went to it, not to the folder.
      const wrong = await connectMcp(['--data', held, '--token', 'wrong']);
      opened.push(wrong);
      const refused = (await wrong.callTool({ name: 'list_sessions', arguments: {} })) as CallToolResult;
      expect(refused.isError).toBe(true);
      expect(text(refused)).toMatch(/^CLI_HOLDING_HOST_UNAUTHORIZED: /);
    } finally {
      for (const mcp of opened) await mcp.close();
      connection.close();
      host.process.kill('SIGINT');
      expect(await host.process.exited).toBe(0);
    }
  }, 120_000);
});

describe('strand mcp start-up', () => {
  it('refuses a data folder that does not exist, on stderr, and creates nothing', () => {
    const missing = path.join(root, 'no-such-folder');
    const run = strand('mcp', '--data', missing);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`CLI_MCP_DATA_FOLDER_MISSING: no data folder at ${missing}`);
    expect(existsSync(missing)).toBe(false);
  }, 120_000);
});

describe('strand mcp framing', () => {
  it('writes newline-delimited JSON-RPC frames and nothing else to stdout', async () => {
    const line = strandCommandLine(['mcp', '--data', data]);
    const child = spawn(line.command, line.args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const send = (frame: object): boolean => child.stdin.write(`${JSON.stringify(frame)}\n`);
    const frames = (): { id?: number }[] =>
      stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { id?: number });
    const answered = async (id: number): Promise<void> => {
      while (!frames().some((f) => f.id === id)) {
        if (child.exitCode !== null) throw new Error(`strand mcp exited; stderr: ${stderr}`);
        await Promise.race([new Promise((resolve) => child.stdout.once('data', resolve)), exited]);
      }
    };
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    });
    await answered(1);
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'list_sessions', arguments: { limit: 1 } },
    });
    await answered(2);
    child.stdin.end();
    // Closing stdin ends the server cleanly.
    expect(await exited).toBe(0);
    expect(stdout.endsWith('\n')).toBe(true);
    const parsed = stdout
      .split('\n')
      .slice(0, -1)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(parsed.map((f) => [f.jsonrpc, f.id])).toEqual([
      ['2.0', 1],
      ['2.0', 2],
    ]);
    expect(parsed[0]).toMatchObject({
      result: { serverInfo: { name: 'strand', version: manifest.version }, protocolVersion: '2025-06-18' },
    });
    expect(JSON.stringify(parsed[1])).toContain('most recently active first');
    // Notes go to stderr.
    expect(stderr).toContain('strand mcp: serving');
  }, 120_000);
});
