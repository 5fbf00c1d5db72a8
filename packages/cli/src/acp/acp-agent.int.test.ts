import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { ProjectionStore, SessionFollower, StrandConnection } from '@strand/client';
import type { WireEvent } from '@strand/protocol';
import {
  eventually,
  mockChatServer,
  sse,
  startStream,
  textChunk,
  type MockChatServer,
} from '@strand/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startAcp, type AcpProcess } from '../testing/acp-process.js';
import { startServe, strand } from '../testing/strand-process.js';
import { eventUpdates } from './event-updates.js';
import manifest from '../../package.json' with { type: 'json' };

/**
 * The real `strand acp` child process, driven over stdio by the ACP SDK's client side, with the
 * built-in scripted model (deterministic echo, `list agents` → a tool call) and, for the cancel,
 * a local OpenAI-compatible endpoint that streams one chunk and then never finishes.
 */
const CODEX_FIXTURES = path.resolve(
  fileURLToPath(import.meta.url),
  '../../../../import/src/codex/fixtures/spawn-fork',
);
const CODEX_PARENT = 'codex-01a00000-0000-7000-8000-000000000001';

let root: string;
let data: string;
let server: MockChatServer;
let acp: AcpProcess;
let modelsFile: string;

function updatesOf(sessionId: string, from = 0): SessionUpdate[] {
  return acp.updates
    .slice(from)
    .filter((n) => n.sessionId === sessionId)
    .map((n) => n.update);
}

function agentText(updates: readonly SessionUpdate[]): string {
  return updates
    .map((u) =>
      u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text' ? u.content.text : '',
    )
    .join('');
}

/** Every event of a session, read through `strand show --json` (the host API, not the disk). */
function logOf(dataDir: string, id: string): WireEvent[] {
  const shown = strand('show', id, '--data', dataDir, '--json', '--events', '10000');
  expect(shown.code, shown.stderr).toBe(0);
  return (shown.json() as { events: WireEvent[] }).events;
}

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'strand-acp-'));
  data = path.join(root, 'data');
  cpSync(CODEX_FIXTURES, path.join(root, 'codex'), { recursive: true });
  const imported = strand('import', 'codex', path.join(root, 'codex'), '--data', data);
  expect(imported.code, imported.stderr).toBe(0);
  server = await mockChatServer();
  // Streams one chunk, then holds the request open until the client goes away (a cancel).
  server.handle((_request, response) => {
    startStream(response);
    response.write(sse(textChunk('thinking about it')));
  });
  modelsFile = path.join(root, 'models.json');
  writeFileSync(
    modelsFile,
    JSON.stringify({
      // The scripted model stays the default: only the cancel test selects the endpoint.
      default: { provider: 'strand', model: 'scripted' },
      models: [{ provider: 'local', model: 'slow-1', baseUrl: server.baseUrl }],
    }),
  );
  acp = startAcp(['--data', data, '--models', modelsFile]);
  await acp.connection.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
}, 300_000);

afterAll(async () => {
  if (acp !== undefined) await acp.end();
  await server?.close();
  rmSync(root, { recursive: true, force: true });
});

/** A new session of the shared agent: each test makes its own, so none depends on another's. */
async function newSession(): Promise<string> {
  return (await acp.connection.agent.request('session/new', { cwd: root, mcpServers: [] })).sessionId;
}

async function prompt(sessionId: string, text: string): Promise<string> {
  return (
    await acp.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] })
  ).stopReason;
}

describe('strand acp over stdio (the SDK client side, a real data folder)', () => {
  it('initialize advertises load and names the agent; stderr says it holds the folder', async () => {
    const answer = await acp.connection.agent.request('initialize', {
      protocolVersion: 1,
      clientCapabilities: {},
    });
    expect(answer.protocolVersion).toBe(1);
    expect(answer.agentCapabilities?.loadSession).toBe(true);
    expect(answer.agentInfo?.name).toBe('strand');
    expect(answer.agentInfo?.version).toBe(manifest.version);
    expect(acp.stderr()).toContain('holding');
    expect(acp.stderr()).toContain('its lock is held until this agent exits');
  });

  it('session/list lists every session (imported ones too), filters by folder, refuses an altered cursor', async () => {
    const answer = await acp.connection.agent.request('initialize', {
      protocolVersion: 1,
      clientCapabilities: {},
    });
    expect(answer.agentCapabilities?.sessionCapabilities?.list).toEqual({});
    const folder = path.join(root, 'listed-here');
    const own = (await acp.connection.agent.request('session/new', { cwd: folder, mcpServers: [] }))
      .sessionId;
    const all = await acp.connection.agent.request('session/list', {});
    const ids = all.sessions.map((s) => s.sessionId);
    expect(ids).toContain(own);
    expect(ids).toContain(CODEX_PARENT);
    for (const info of all.sessions) {
      expect(path.isAbsolute(info.cwd)).toBe(true);
      expect(Number.isNaN(Date.parse(info.updatedAt ?? ''))).toBe(false);
    }
    // Newest activity first, as the host lists them.
    const times = all.sessions.map((s) => Date.parse(s.updatedAt!));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const narrowed = await acp.connection.agent.request('session/list', { cwd: folder });
    expect(narrowed.sessions.map((s) => s.sessionId)).toEqual([own]);
    expect(narrowed.nextCursor ?? undefined).toBeUndefined();
    await expect(
      acp.connection.agent.request('session/list', { cursor: 'not-a-cursor' }),
    ).rejects.toMatchObject({ code: -32602, data: { code: 'HOST_LIST_CURSOR_INVALID' } });
  });

  it('session/new creates a Strand session: its id is the ACP sessionId, listed by strand list', async () => {
    const created = await acp.connection.agent.request('session/new', { cwd: root, mcpServers: [] });
    const sessionId = created.sessionId;
    expect(created.modes?.availableModes.map((m) => m.id)).toEqual(['general', 'solo', 'reviewer', 'none']);
    expect(created.modes?.currentModeId).toBe('none');
    const model = created.configOptions?.find((o) => o.id === 'model');
    expect(model?.category).toBe('model');
    expect(model?.type === 'select' && model.currentValue).toBe('default');
    // The folder is held by this agent; `strand list` reads through the host it announced.
    const listed = strand('list', '--data', data, '--json');
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.stringify(listed.json())).toContain(sessionId);
  });

  it('strand serve on the folder the agent holds is refused, naming the editor agent', () => {
    const refused = strand('serve', '--data', data, '--port', '0');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('`strand acp` (pid');
    expect(refused.stderr).toContain("it is an editor's agent");
  });

  it('session/prompt streams the reply as agent_message_chunk and answers end_turn', async () => {
    const sessionId = await newSession();
    const from = acp.updates.length;
    const answer = await acp.connection.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'hello there' }],
    });
    expect(answer.stopReason).toBe('end_turn');
    const updates = updatesOf(sessionId, from);
    expect(agentText(updates)).toBe('You said: "hello there" (2 words).');
    // The editor shows its own prompt: it is not echoed back.
    expect(updates.some((u) => u.sessionUpdate === 'user_message_chunk')).toBe(false);
  });

  it('a tool turn streams tool_call then tool_call_update (completed), with no permission asked', async () => {
    const sessionId = await newSession();
    const from = acp.updates.length;
    const answer = await acp.connection.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'list agents' }],
    });
    expect(answer.stopReason).toBe('end_turn');
    const updates = updatesOf(sessionId, from);
    const kinds = updates.map((u) => u.sessionUpdate);
    expect(kinds.indexOf('tool_call')).toBeGreaterThanOrEqual(0);
    expect(kinds.indexOf('tool_call_update')).toBeGreaterThan(kinds.indexOf('tool_call'));
    const call = updates.find((u) => u.sessionUpdate === 'tool_call');
    const result = updates.find((u) => u.sessionUpdate === 'tool_call_update');
    expect(call?.sessionUpdate === 'tool_call' && call.title).toBe('list_agents');
    expect(call?.sessionUpdate === 'tool_call' && call.rawInput).toEqual({ scope: 'children' });
    expect(result?.sessionUpdate === 'tool_call_update' && result.status).toBe('completed');
    expect(result?.sessionUpdate === 'tool_call_update' && result.toolCallId).toBe(
      call?.sessionUpdate === 'tool_call' ? call.toolCallId : 'none',
    );
    expect(agentText(updates).length).toBeGreaterThan(0);
    expect(acp.permissionRequests).toEqual([]);
  });

  it('session/set_mode selects the preset; the model option selects a catalog model', async () => {
    const sessionId = await newSession();
    await acp.connection.agent.request('session/set_mode', { sessionId, modeId: 'solo' });
    const set = await acp.connection.agent.request('session/set_config_option', {
      sessionId,
      configId: 'model',
      value: 'local/slow-1',
    });
    const model = set.configOptions.find((o) => o.id === 'model');
    expect(model?.type === 'select' && model.currentValue).toBe('local/slow-1');
    const types = logOf(data, sessionId).map((e) => e.type);
    expect(types).toContain('agent-preset/select');
    expect(types).toContain('model/selection');
  });

  it('session/cancel mid-turn ends the prompt with cancelled', async () => {
    const sessionId = await newSession();
    // The local endpoint streams one chunk and never finishes: the turn runs until cancelled.
    await acp.connection.agent.request('session/set_config_option', {
      sessionId,
      configId: 'model',
      value: 'local/slow-1',
    });
    const requestsBefore = server.requests.length;
    const prompt = acp.connection.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'take your time' }],
    });
    // The turn is running once the endpoint has the request (it never finishes on its own).
    await eventually(() => server.requests.length > requestsBefore, 'the endpoint has the request');
    await acp.connection.agent.notify('session/cancel', { sessionId });
    expect((await prompt).stopReason).toBe('cancelled');
    const ends = logOf(data, sessionId).filter((e) => e.type === 'turn/end');
    expect(ends.at(-1)?.data).toMatchObject({ reason: 'aborted' });
  });

  it('session/load replays the whole log as session/update, equal to the log', async () => {
    const sessionId = await newSession();
    expect(await prompt(sessionId, 'hello there')).toBe('end_turn');
    expect(await prompt(sessionId, 'list agents')).toBe('end_turn');
    const from = acp.updates.length;
    await acp.connection.agent.request('session/load', { sessionId, cwd: root, mcpServers: [] });
    const replayed = updatesOf(sessionId, from);
    const log = logOf(data, sessionId);
    expect(replayed).toEqual(log.flatMap((event) => eventUpdates(event, 'history')));
    // Concretely: both prompts, the echo and the tool round trip are there, in log order.
    const users = replayed.filter((u) => u.sessionUpdate === 'user_message_chunk');
    expect(users.map((u) => u.content.type === 'text' && u.content.text)).toEqual([
      'hello there',
      'list agents',
    ]);
    expect(replayed.some((u) => u.sessionUpdate === 'tool_call')).toBe(true);
    expect(agentText(replayed)).toContain('You said: "hello there" (2 words).');
  });

  it('an imported session loads (its history replayed)', async () => {
    const from = acp.updates.length;
    const loaded = await acp.connection.agent.request('session/load', {
      sessionId: CODEX_PARENT,
      cwd: root,
      mcpServers: [],
    });
    expect(loaded.modes).toBeDefined();
    const updates = updatesOf(CODEX_PARENT, from);
    // The log replayed, exactly; beside it, the one command an imported session offers.
    const replayed = updates.filter((u) => u.sessionUpdate !== 'available_commands_update');
    expect(replayed.length).toBeGreaterThan(0);
    expect(replayed).toEqual(logOf(data, CODEX_PARENT).flatMap((event) => eventUpdates(event, 'history')));
    const offered = updates.filter((u) => u.sessionUpdate === 'available_commands_update');
    expect(offered.map((u) => u.availableCommands.map((c) => c.name))).toEqual([['continue-in-strand-fork']]);
  });

  it('a prompt to an imported session is refused with a typed error', async () => {
    // The importer records where the session came from; that harness owns it, so the host refuses
    // every command that would append, and strand acp passes the stable code on in data.code.
    const shown = strand('show', CODEX_PARENT, '--data', data, '--json');
    const header = (shown.json() as { header: { source?: { harness?: string } } }).header;
    expect(header.source?.harness).toBe('codex');
    const before = logOf(data, CODEX_PARENT).length;
    await acp.connection.agent.request('session/load', {
      sessionId: CODEX_PARENT,
      cwd: root,
      mcpServers: [],
    });
    const refused = await acp.connection.agent
      .request('session/prompt', { sessionId: CODEX_PARENT, prompt: [{ type: 'text', text: 'hi' }] })
      .then(
        () => undefined,
        (error: unknown) => error as { code: number; data?: { code?: string; message?: string } },
      );
    expect(refused?.data?.code).toBe('SESSION_READ_ONLY');
    // The refusal says what to do instead.
    expect(refused?.data?.message).toContain('/continue-in-strand-fork');
    expect(logOf(data, CODEX_PARENT)).toHaveLength(before);
  });

  it('/continue-in-strand-fork forks an imported session at its last closed turn, on the default model', async () => {
    const parentLog = logOf(data, CODEX_PARENT);
    const lastEnd = parentLog.filter((e) => e.type === 'turn/end').at(-1)!.seq;
    await acp.connection.agent.request('session/load', {
      sessionId: CODEX_PARENT,
      cwd: root,
      mcpServers: [],
    });
    const from = acp.updates.length;
    expect(await prompt(CODEX_PARENT, '/continue-in-strand-fork')).toBe('end_turn');
    const said = agentText(updatesOf(CODEX_PARENT, from));
    const fork = /Forked as (\S+) /.exec(said)?.[1];
    expect(fork, said).toBeDefined();
    expect(logOf(data, CODEX_PARENT)).toEqual(parentLog); // the imported session is untouched
    // The fork holds the parent's events through that turn/end, then the default model selected.
    const forkLog = logOf(data, fork!);
    expect(forkLog.slice(0, lastEnd + 1).map((e) => e.type)).toEqual(
      parentLog.slice(0, lastEnd + 1).map((e) => e.type),
    );
    expect(forkLog.at(-1)).toMatchObject({
      type: 'model/selection',
      data: { provider: 'strand', model: 'scripted' },
    });
    // Another prompt to the imported session names the fork; the fork itself takes a prompt.
    const refused = await acp.connection.agent
      .request('session/prompt', { sessionId: CODEX_PARENT, prompt: [{ type: 'text', text: 'hi' }] })
      .then(
        () => undefined,
        (error: unknown) => error as { data?: { code?: string; message?: string } },
      );
    expect(refused?.data).toMatchObject({ code: 'SESSION_READ_ONLY' });
    expect(refused?.data?.message).toContain(fork);
    await acp.connection.agent.request('session/load', { sessionId: fork!, cwd: root, mcpServers: [] });
    const before = acp.updates.length;
    expect(await prompt(fork!, 'go on here')).toBe('end_turn');
    expect(agentText(updatesOf(fork!, before))).toBe('You said: "go on here" (3 words).');
  });

  it('a prompt to a session it did not open is refused with CLI_ACP_SESSION_NOT_OPEN', async () => {
    const refused = await acp.connection.agent
      .request('session/prompt', { sessionId: 'no-such', prompt: [{ type: 'text', text: 'hi' }] })
      .then(
        () => undefined,
        (error: unknown) => error as { code: number; data?: { code?: string } },
      );
    expect(refused?.code).toBe(-32002);
    expect(refused?.data?.code).toBe('CLI_ACP_SESSION_NOT_OPEN');
  });

  it('stdout carried protocol frames only', () => {
    const lines = acp.stdoutLines();
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect((JSON.parse(line) as { jsonrpc?: unknown }).jsonrpc).toBe('2.0');
  });

  it('closing stdin ends the agent (exit 0) and lets go of the folder', async () => {
    // Its own agent and folder: the shared one stays up for the other tests, in any order.
    const dir = path.join(root, 'closing');
    const own = startAcp(['--data', dir]);
    try {
      await own.connection.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
      await own.connection.agent.request('session/new', { cwd: dir, mcpServers: [] });
      expect(existsSync(path.join(dir, 'strand.lock.json'))).toBe(true);
    } finally {
      expect(await own.end()).toBe(0);
    }
    expect(existsSync(path.join(dir, 'strand.lock.json'))).toBe(false);
    // The folder is free: another writer takes it at once.
    const imported = strand('import', 'codex', path.join(root, 'codex'), '--data', dir);
    expect(imported.code, imported.stderr).toBe(0);
  });
});

describe('strand acp beside a running host', () => {
  it('a host killed mid-turn fails the prompt with CLI_ACP_HOST_LOST (no hang)', async () => {
    const dir = path.join(root, 'killed');
    const serve = await startServe(dir, ['--models', modelsFile]);
    const agent = startAcp(['--data', dir]);
    try {
      await agent.connection.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
      const { sessionId } = await agent.connection.agent.request('session/new', { cwd: dir, mcpServers: [] });
      await agent.connection.agent.request('session/set_config_option', {
        sessionId,
        configId: 'model',
        value: 'local/slow-1',
      });
      const requestsBefore = server.requests.length;
      const prompt = agent.connection.agent
        .request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'never answered' }] })
        .then(
          () => undefined,
          (error: unknown) => error as { code: number; data?: { code?: string } },
        );
      await eventually(() => server.requests.length > requestsBefore, 'the endpoint has the request');
      serve.process.kill('SIGKILL');
      const refused = await prompt;
      expect(refused?.data?.code).toBe('CLI_ACP_HOST_LOST');
    } finally {
      if (serve.process.pid !== undefined) serve.process.kill('SIGKILL');
      await serve.process.exited;
      expect(await agent.end()).toBe(0);
    }
  });

  it('works through the host: a web-side follower sees the ACP turn live', async () => {
    const dir = path.join(root, 'hosted');
    const serve = await startServe(dir);
    const agent = startAcp(['--data', dir]);
    const connection = new StrandConnection({ url: serve.rpcUrl, WebSocket });
    try {
      await agent.connection.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
      expect(agent.stderr()).toContain(`through the host at ${serve.rpcUrl}`);
      const { sessionId } = await agent.connection.agent.request('session/new', { cwd: dir, mcpServers: [] });
      const follower = new SessionFollower({ connection, store: new ProjectionStore() });
      await follower.follow(sessionId);
      const seen = new Promise<WireEvent[]>((resolve) => {
        const off = follower.subscribe((view) => {
          const events = view.shown?.events ?? [];
          if (events.some((e) => e.type === 'turn/end')) {
            off();
            resolve([...events]);
          }
        });
      });
      const answer = await agent.connection.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'seen from the web' }],
      });
      expect(answer.stopReason).toBe('end_turn');
      const events = await seen;
      expect(events.find((e) => e.type === 'user/message')?.data).toMatchObject({
        content: 'seen from the web',
      });
      expect(events.find((e) => e.type === 'assistant/message')?.data).toMatchObject({
        content: 'You said: "seen from the web" (4 words).',
      });
      await follower.unfollow();
    } finally {
      connection.close();
      expect(await agent.end()).toBe(0);
      serve.process.kill('SIGTERM');
      await serve.process.exited;
    }
  });
});
