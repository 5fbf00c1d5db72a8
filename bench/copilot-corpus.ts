import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { mulberry32, type Rng } from '@strand/workload';
import { hex, uuid, words } from './corpus-text.js';

/**
 * A generated GitHub Copilot CLI corpus for `bench:import` (`importMBpsByHarness.copilot`): the
 * `~/.copilot/session-state` layout, `<sessionId>/events.jsonl` with its `workspace.yaml`,
 * records shaped as Copilot CLI 1.0.102 writes them (see
 * `packages/import/src/copilot/fixtures/bed/`): `session.start`, a prompt and the system prompt,
 * per round `assistant.turn_start`, a `session.usage_record`, the `assistant.message` with its
 * `toolRequests`, `tool.execution_start`/`_complete` and `assistant.turn_end`; about a quarter of
 * the sessions run a `task` subagent inline (records with `parentToolCallId`). Deterministic
 * (seeded PRNG).
 */

interface Writer {
  readonly lines: string[];
  time: number;
  parent: string | null;
}

function push(rng: Rng, w: Writer, type: string, data: Record<string, unknown>): void {
  const id = uuid(rng);
  const timestamp = new Date((w.time += 50 + Math.floor(rng() * 2000))).toISOString();
  w.lines.push(JSON.stringify({ type, data, id, timestamp, parentId: w.parent }));
  w.parent = id;
}

function usageRecord(rng: Rng, w: Writer, call: string, parentToolCallId?: string): void {
  const input = 2000 + Math.floor(rng() * 60000);
  push(rng, w, 'session.usage_record', {
    usage: {
      model: 'claude-sonnet-4.5',
      inputTokens: input,
      outputTokens: 1 + Math.floor(rng() * 400),
      cacheReadTokens: Math.floor(input * rng()),
      cacheWriteTokens: 0,
      cost: 1,
      duration: Math.floor(rng() * 5000),
      initiator: parentToolCallId === undefined ? 'user' : 'sub-agent',
      modelProvider: 'anthropic',
      apiCallId: call,
      ...(parentToolCallId === undefined ? {} : { parentToolCallId }),
    },
  });
}

/** One model round that reads a file: usage, the message with its call, the tool's run. */
function toolRound(rng: Rng, w: Writer, turnId: number, parentToolCallId?: string): void {
  const scope = parentToolCallId === undefined ? {} : { parentToolCallId };
  const call = `toolu_${hex(rng, 24)}`;
  const api = `msg_${hex(rng, 24)}`;
  const args = { path: `/home/user/src/${words(rng, 1)}.ts` };
  push(rng, w, 'assistant.turn_start', { turnId: String(turnId), interactionId: uuid(rng), ...scope });
  usageRecord(rng, w, api, parentToolCallId);
  push(rng, w, 'assistant.message', {
    messageId: uuid(rng),
    model: 'claude-sonnet-4.5',
    content: words(rng, 20 + Math.floor(rng() * 60)),
    toolRequests: [{ toolCallId: call, name: 'view', arguments: args, type: 'function' }],
    turnId: String(turnId),
    apiCallId: api,
    ...scope,
  });
  push(rng, w, 'tool.execution_start', { toolCallId: call, toolName: 'view', arguments: args, ...scope });
  const lines: string[] = [];
  for (let i = 0, n = 20 + Math.floor(rng() * 400); i < n; i++)
    lines.push(`${i + 1}. const ${words(rng, 1)}_${i} = "${words(rng, 6)}"; // ${words(rng, 4)}`);
  push(rng, w, 'tool.execution_complete', {
    toolCallId: call,
    success: true,
    result: { content: lines.join('\n') },
    toolTelemetry: { properties: { command: 'view' }, metrics: { resultLength: lines.length } },
    ...scope,
  });
  push(rng, w, 'assistant.turn_end', { turnId: String(turnId), ...scope });
}

function answerRound(rng: Rng, w: Writer, turnId: number, parentToolCallId?: string): void {
  const scope = parentToolCallId === undefined ? {} : { parentToolCallId };
  const api = `msg_${hex(rng, 24)}`;
  push(rng, w, 'assistant.turn_start', { turnId: String(turnId), interactionId: uuid(rng), ...scope });
  usageRecord(rng, w, api, parentToolCallId);
  push(rng, w, 'assistant.message', {
    messageId: uuid(rng),
    model: 'claude-sonnet-4.5',
    content: words(rng, 80),
    toolRequests: [],
    turnId: String(turnId),
    apiCallId: api,
    ...scope,
  });
  push(rng, w, 'assistant.turn_end', { turnId: String(turnId), ...scope });
}

/** A prompt, a few rounds of tool calls (one of them, now and then, a subagent), an answer. */
function turn(rng: Rng, w: Writer, sessionId: string, prompt: string): void {
  push(rng, w, 'user.message', {
    content: prompt,
    transformedContent: `<current_datetime>${new Date(w.time).toISOString()}</current_datetime>\n\n${prompt}`,
    messageId: uuid(rng),
    delivery: 'idle',
    interactionId: uuid(rng),
    turnId: '0',
  });
  push(rng, w, 'system.message', { role: 'system', content: words(rng, 300) });
  const rounds = 1 + Math.floor(rng() * 6);
  let turnId = 0;
  for (let r = 0; r < rounds; r++) toolRound(rng, w, turnId++);
  if (rng() < 0.08) {
    const task = `toolu_${hex(rng, 24)}`;
    const api = `msg_${hex(rng, 24)}`;
    const subtask = words(rng, 40);
    push(rng, w, 'assistant.turn_start', { turnId: String(turnId), interactionId: uuid(rng) });
    usageRecord(rng, w, api);
    push(rng, w, 'assistant.message', {
      messageId: uuid(rng),
      model: 'claude-sonnet-4.5',
      content: '',
      toolRequests: [
        {
          toolCallId: task,
          name: 'task',
          arguments: {
            name: 'worker',
            description: words(rng, 3),
            prompt: subtask,
            agent_type: 'general-purpose',
          },
          type: 'function',
        },
      ],
      turnId: String(turnId),
      apiCallId: api,
    });
    push(rng, w, 'subagent.started', {
      toolCallId: task,
      agentName: 'general-purpose',
      agentDisplayName: 'worker',
      agentDescription: words(rng, 3),
      model: 'claude-sonnet-4.5',
    });
    push(rng, w, 'user.message', { content: subtask, source: `agent-${sessionId}`, messageId: uuid(rng) });
    for (let r = 0, n = 1 + Math.floor(rng() * 3); r < n; r++) toolRound(rng, w, r, task);
    answerRound(rng, w, 9, task);
    push(rng, w, 'subagent.completed', { toolCallId: task, agentName: 'general-purpose' });
    push(rng, w, 'tool.execution_complete', {
      toolCallId: task,
      success: true,
      result: { content: words(rng, 40) },
    });
    push(rng, w, 'assistant.turn_end', { turnId: String(turnId++) });
  }
  answerRound(rng, w, turnId);
}

/** Writes the corpus under `root` (a `session-state` folder); returns its size and log count. */
export function generateCopilotCorpus(root: string, bytesTarget: number): { bytes: number; files: number } {
  const rng = mulberry32(20_261_204);
  let bytes = 0;
  let files = 0;
  while (bytes < bytesTarget) {
    const sessionId = uuid(rng);
    const dir = path.join(root, sessionId);
    mkdirSync(dir, { recursive: true });
    const start = Date.UTC(2026, 0, 1) + Math.floor(rng() * 1e10);
    const w: Writer = { lines: [], time: start, parent: null };
    const cwd = `/home/user/project-${Math.floor(rng() * 40)}`;
    push(rng, w, 'session.start', {
      sessionId,
      version: 1,
      producer: 'copilot-agent',
      copilotVersion: '1.0.102',
      startTime: new Date(start).toISOString(),
      selectedModel: 'claude-sonnet-4.5',
      context: { cwd },
    });
    // Session sizes vary from a few KB to several MB, like real history.
    const turns = 1 + Math.floor(rng() * rng() * 60);
    let first = '';
    for (let t = 0; t < turns; t++) {
      const prompt = words(rng, 8 + Math.floor(rng() * 30));
      first ||= prompt;
      turn(rng, w, sessionId, prompt);
    }
    const text = w.lines.join('\n') + '\n';
    writeFileSync(path.join(dir, 'events.jsonl'), text);
    writeFileSync(
      path.join(dir, 'workspace.yaml'),
      `id: ${sessionId}\ncwd: ${cwd}\nclient_name: github/cli\nname: ${first.slice(0, 60)}\nuser_named: false\n`,
    );
    bytes += Buffer.byteLength(text);
    files++;
  }
  return { bytes, files };
}
