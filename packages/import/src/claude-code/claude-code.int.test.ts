import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseSubagentDescriptor } from '@strand/subagent';
import { importTranscripts } from '../run/import-transcripts.js';
import type { ImportSummary } from '../types.js';
import {
  PACKAGE_SRC,
  copyInto,
  dataOf,
  importedLogViolations,
  readStore,
  workspace,
  type Workspace,
} from '../testing/fixture-dirs.js';

const FIXTURES = path.join(PACKAGE_SRC, 'claude-code', 'fixtures');
const SID = '5b1c2d3e-4f50-4617-8829-3a4b5c6d7e8f';

let ws: Workspace;
beforeEach(() => {
  ws = workspace();
});
afterEach(() => ws.dispose());

describe('Claude Code 2.1 subagents/ layout', () => {
  it('imports the main session and one child per subagent file, labelled from .meta.json or else the parent Agent call', async () => {
    copyInto(path.join(FIXTURES, 'subagents-layout'), ws.source);
    const summary = await importTranscripts({
      harness: 'claude-code',
      sourceDir: ws.source,
      dataDir: ws.data,
    });
    expect(summary).toMatchObject({ imported: 3, failed: 0, skipped: 0, files: 3 });
    // Children name a parent that is in the store: no "absent parent" note.
    expect(summary.reports).toEqual([]);
    const store = await readStore(ws.data);
    const main = store.get(`claude-${SID}`)!;
    expect(main.header).toMatchObject({
      cwd: '/home/dev/app',
      createdAt: Date.parse('2026-04-02T09:00:00.000Z'),
      isSeeded: false,
    });
    expect(main.header.origin).toBeUndefined();

    const labelled = store.get(`claude-${SID}-agent-a0123456789abcdef`)!;
    const fromParent = store.get(`claude-${SID}-agent-afedcba9876543210`)!;
    for (const child of [labelled, fromParent]) {
      expect(child.header).toMatchObject({
        origin: 'subagent',
        parentSession: `claude-${SID}`,
        delegationDepth: 1,
        cwd: '/home/dev/app',
      });
      expect(child.events[0]!.type).toBe('subagent/descriptor');
      expect(importedLogViolations(child.events)).toEqual([]);
    }
    expect(parseSubagentDescriptor(labelled.events[0]!.data)).toEqual({
      kind: 'ok',
      descriptor: { version: 2, mode: 'one-shot', label: 'Find the config loader' },
    });
    // No meta file: the description of the parent's Agent call whose result names this agent id.
    expect(parseSubagentDescriptor(fromParent.events[0]!.data)).toEqual({
      kind: 'ok',
      descriptor: { version: 2, mode: 'one-shot', label: 'Check config validation' },
    });
    expect(dataOf(fromParent, 'tool/call')).toHaveLength(3);
  });

  it('maps the main conversation: one message per streamed chunk, usage growth per chunk, the route, titles and turn end', async () => {
    copyInto(path.join(FIXTURES, 'subagents-layout'), ws.source);
    await importTranscripts({ harness: 'claude-code', sourceDir: ws.source, dataDir: ws.data });
    const main = (await readStore(ws.data)).get(`claude-${SID}`)!;
    expect(main.events.map((e) => e.type)).toEqual([
      'session/title',
      'turn/start',
      'user/message',
      'request/header',
      'assistant/message',
      'assistant/message',
      'tool/call',
      'assistant/message',
      'tool/call',
      'tool/result',
      'tool/result',
      'assistant/message',
      'turn/end',
      'session/title',
    ]);
    const answers = dataOf<Record<string, unknown>>(main, 'assistant/message');
    const lastAnswer = answers.at(-1);
    // Four chunk lines of one response (thinking, text, two Agent calls): each chunk with something
    // to show is its own message (a later line never rewrites an earlier one); together they carry
    // the text, both calls and the last chunk's usage, each kind apart: fresh input, cache writes,
    // cache reads, output.
    const response = answers.slice(0, 3);
    expect(response.map((a) => a.content)).toEqual(['I will look at both in parallel.', '', '']);
    const sum: Record<string, number> = {};
    for (const a of response)
      for (const [kind, n] of Object.entries((a.usage as Record<string, number> | undefined) ?? {}))
        sum[kind] = (sum[kind] ?? 0) + n;
    expect(sum).toEqual({ input: 10, cacheCreation: 100, cacheRead: 1000, output: 90 });
    expect({
      toolCalls: response.flatMap((a) => (a.toolCalls as unknown[] | undefined) ?? []),
    }).toEqual({
      toolCalls: [
        {
          id: 'toolu_AG1',
          name: 'Agent',
          arguments: JSON.stringify({
            description: 'Find the config loader',
            prompt: 'Find where the app loads its config file.',
            subagent_type: 'Explore',
          }),
        },
        {
          id: 'toolu_AG2',
          name: 'Agent',
          arguments: JSON.stringify({
            description: 'Check config validation',
            prompt: 'Check whether the config is validated after loading.',
            subagent_type: 'general-purpose',
          }),
        },
      ],
    });
    expect(lastAnswer).toMatchObject({ usage: { input: 5, cacheCreation: 50, cacheRead: 2000, output: 40 } });
    expect(dataOf(main, 'request/header')).toEqual([{ provider: 'anthropic', model: 'claude-opus-4-6' }]);
    expect(dataOf(main, 'user/message')).toEqual([
      { content: 'Where is the config loaded, and is it validated?', author: 'human' },
    ]);
    // The first prompt titles the session; the custom title written later wins (last-wins).
    expect(dataOf<{ title: string }>(main, 'session/title').map((t) => t.title)).toEqual([
      'Where is the config loaded, and is it validated?',
      'Config loading review',
    ]);
    expect(dataOf(main, 'turn/end')).toEqual([{ reason: 'completed' }]);
    // Events carry the transcript's times.
    expect(main.events.find((e) => e.type === 'user/message')!.time).toBe(
      Date.parse('2026-04-02T09:00:00.100Z'),
    );
  });

  it('ignores tool-results/ and reads a subagent meta file written without a trailing newline', async () => {
    copyInto(path.join(FIXTURES, 'subagents-layout'), ws.source);
    const meta = path.join(ws.source, '-home-dev-app', SID, 'subagents', 'agent-a0123456789abcdef.meta.json');
    // As Claude Code writes it: compact, no newline at the end.
    writeFileSync(meta, JSON.stringify({ agentType: 'Explore', description: 'Locate config' }));
    const summary = await importTranscripts({
      harness: 'claude-code',
      sourceDir: ws.source,
      dataDir: ws.data,
    });
    expect(summary.reports.filter((r) => r.file.includes('tool-results'))).toEqual([]);
    expect(summary.files).toBe(3);
    const child = (await readStore(ws.data)).get(`claude-${SID}-agent-a0123456789abcdef`)!;
    expect(parseSubagentDescriptor(child.events[0]!.data)).toEqual({
      kind: 'ok',
      descriptor: { version: 2, mode: 'one-shot', label: 'Locate config' },
    });
  });

  it('a changed .meta.json re-maps its child (the companion is part of the fingerprint)', async () => {
    copyInto(path.join(FIXTURES, 'subagents-layout'), ws.source);
    await importTranscripts({ harness: 'claude-code', sourceDir: ws.source, dataDir: ws.data });
    const meta = path.join(ws.source, '-home-dev-app', SID, 'subagents', 'agent-a0123456789abcdef.meta.json');
    writeFileSync(
      meta,
      JSON.stringify({ agentType: 'Explore', description: 'Find the config loader, again' }),
    );
    const summary = await importTranscripts({
      harness: 'claude-code',
      sourceDir: ws.source,
      dataDir: ws.data,
    });
    expect(summary).toMatchObject({ updated: 1, replaced: 1, unchanged: 2 });
    expect(summary.sessions).toEqual([
      {
        id: `claude-${SID}-agent-a0123456789abcdef`,
        file: expect.stringContaining('agent-a0123456789abcdef.jsonl'),
        outcome: 'replaced',
      },
    ]);
  });
});

describe('a damaged Claude Code transcript', () => {
  it('reports a malformed line, an unknown record type and a torn last line by line, and imports the rest with the open turn left open', async () => {
    copyInto(path.join(FIXTURES, 'damaged'), ws.source);
    const summary = await importTranscripts({
      harness: 'claude-code',
      sourceDir: ws.source,
      dataDir: ws.data,
    });
    const file = path.join(ws.source, '0d0d0d0d-1111-4222-8333-444455556666.jsonl');
    expect(summary).toMatchObject({ imported: 1, failed: 0, skipped: 3 });
    expect(summary.reports).toEqual([
      { file, line: 3, kind: 'skipped-record', reason: expect.stringContaining('malformed JSON') },
      { file, line: 4, kind: 'skipped-record', reason: 'unknown record type "mystery-record"' },
      { file, line: 9, kind: 'skipped-record', reason: 'torn last line (no newline, incomplete JSON)' },
    ]);
    const stored = (await readStore(ws.data)).get('claude-0d0d0d0d-1111-4222-8333-444455556666')!;
    expect(importedLogViolations(stored.events)).toEqual([]);
    // The second turn's Bash call has no result in the file (its line was torn): the turn stays
    // open, the call unanswered — the next lines close it when the transcript shows its end, and
    // Strand never repairs it (the session has a source).
    expect(stored.events.at(-1)).toMatchObject({ type: 'tool/call', data: { callId: 'toolu_D3' } });
    expect(dataOf<{ callId: string }>(stored, 'tool/result').map((r) => r.callId)).not.toContain('toolu_D3');
    expect(dataOf<{ reason: string }>(stored, 'turn/end').map((e) => e.reason)).toEqual(['completed']);
    expect(stored.repairs).toEqual([]);
    expect(stored.events.at(-1)!.time).toBe(Date.parse('2026-01-10T10:01:01.000Z'));
  });
});

describe('Claude Code 2.0 flat agent files, AI titles, warmups and /exit', () => {
  const FLAT = path.join(FIXTURES, 'flat-2.0', '-home-dev-tool');
  const FLAT_SID = '7c7c7c7c-1111-4222-8333-444455556666';
  const PROMPT = 'List every test file and how long it takes';

  const importFlat = (names: Record<string, string>) => {
    mkdirSync(ws.source, { recursive: true });
    for (const [from, to] of Object.entries(names))
      copyFileSync(path.join(FLAT, from), path.join(ws.source, to));
    return importTranscripts({ harness: 'claude-code', sourceDir: ws.source, dataDir: ws.data });
  };

  it('the latest ai-title titles the session ahead of the first prompt; a child starting with the reply gets the prompt of the parent’s Task call', async () => {
    const summary = await importFlat({
      [`${FLAT_SID}.jsonl`]: `${FLAT_SID}.jsonl`,
      'agent-1a2b3c4d.jsonl': 'agent-1a2b3c4d.jsonl',
    });
    expect(summary).toMatchObject({ imported: 2, failed: 0, skipped: 0, reports: [] });
    const store = await readStore(ws.data);
    const main = store.get(`claude-${FLAT_SID}`)!;
    const titles = dataOf<{ title: string }>(main, 'session/title').map((t) => t.title);
    expect(titles.at(-1)).toBe('Find the slow e2e suite');
    expect(titles).not.toContain('/exit');
    // The /exit turn asked the model nothing: it is over, not interrupted.
    expect(dataOf<{ reason: string }>(main, 'turn/end').map((e) => e.reason)).toEqual([
      'completed',
      'completed',
    ]);
    expect(importedLogViolations(main.events)).toEqual([]);

    const child = store.get(`claude-${FLAT_SID}-agent-1a2b3c4d`)!;
    expect(child.events.slice(0, 4).map((e) => e.type)).toEqual([
      'subagent/descriptor',
      'session/title',
      'turn/start',
      'user/message',
    ]);
    expect(dataOf(child, 'user/message')).toEqual([{ content: PROMPT, author: 'agent' }]);
    expect(dataOf<{ title: string }>(child, 'session/title').map((t) => t.title)).toEqual([PROMPT]);
    expect(dataOf(child, 'subagent/descriptor')).toEqual([
      { version: 2, mode: 'one-shot', label: 'Survey the tests' },
    ]);
    expect(importedLogViolations(child.events)).toEqual([]);

    const again = await importTranscripts({ harness: 'claude-code', sourceDir: ws.source, dataDir: ws.data });
    expect(again).toMatchObject({ imported: 0, updated: 0, unchanged: 2, failed: 0 });
  });

  it('labels and prompts are found by content: the same bytes under other names give the same child', async () => {
    await importFlat({
      [`${FLAT_SID}.jsonl`]: 'repo__main.jsonl',
      'agent-1a2b3c4d.jsonl': 'repo__worker.jsonl',
    });
    const renamed = (await readStore(ws.data)).get(`claude-${FLAT_SID}-agent-1a2b3c4d`)!;
    expect(dataOf(renamed, 'subagent/descriptor')).toEqual([
      { version: 2, mode: 'one-shot', label: 'Survey the tests' },
    ]);
    expect(dataOf(renamed, 'user/message')).toEqual([{ content: PROMPT, author: 'agent' }]);
  });

  it('a custom title outranks every ai-title, before or after it', async () => {
    mkdirSync(ws.source, { recursive: true });
    const lines = readFileSync(path.join(FLAT, `${FLAT_SID}.jsonl`), 'utf8').split('\n');
    const custom = JSON.stringify({
      type: 'custom-title',
      customTitle: 'My renamed session',
      sessionId: FLAT_SID,
    });
    lines.splice(2, 0, custom);
    writeFileSync(path.join(ws.source, `${FLAT_SID}.jsonl`), lines.join('\n'));
    await importTranscripts({ harness: 'claude-code', sourceDir: ws.source, dataDir: ws.data });
    const main = (await readStore(ws.data)).get(`claude-${FLAT_SID}`)!;
    expect(
      dataOf<{ title: string }>(main, 'session/title')
        .map((t) => t.title)
        .at(-1),
    ).toBe('My renamed session');
  });

  it('an ai-title the harness restates (one per turn, most alike) renames the session only when it changes', async () => {
    mkdirSync(ws.source, { recursive: true });
    const lines = readFileSync(path.join(FLAT, `${FLAT_SID}.jsonl`), 'utf8')
      .trimEnd()
      .split('\n');
    const aiTitle = (title: string) =>
      JSON.stringify({ type: 'ai-title', aiTitle: title, sessionId: FLAT_SID });
    // As a long session writes them: the same title again and again, one change, then again.
    lines.push(...Array.from({ length: 40 }, () => aiTitle('Find the slow e2e suite')));
    lines.push(aiTitle('Speed up the e2e suite'), aiTitle('Speed up the e2e suite'));
    writeFileSync(path.join(ws.source, `${FLAT_SID}.jsonl`), lines.join('\n') + '\n');
    await importTranscripts({ harness: 'claude-code', sourceDir: ws.source, dataDir: ws.data });
    const main = (await readStore(ws.data)).get(`claude-${FLAT_SID}`)!;
    const titles = dataOf<{ title: string }>(main, 'session/title').map((t) => t.title);
    expect(titles.at(-1)).toBe('Speed up the e2e suite');
    // No title follows one equal to it.
    expect(titles.filter((t, i) => i > 0 && titles[i - 1] === t)).toEqual([]);
    expect(titles.filter((t) => t === 'Speed up the e2e suite')).toHaveLength(1);
  });

  it("a cost-state record (the harness's running cost) is a session/cost event, split by model; an unreadable one is reported", async () => {
    mkdirSync(ws.source, { recursive: true });
    const lines = readFileSync(path.join(FLAT, `${FLAT_SID}.jsonl`), 'utf8')
      .trimEnd()
      .split('\n');
    // The record as Claude Code 2.1.328 writes it (its own schema: type "cost-state", sessionId,
    // totalCostUSD, durations, lines added/removed, startTime, modelUsage per model).
    const costState = (total: number, opus: number, haiku: number) =>
      JSON.stringify({
        type: 'cost-state',
        sessionId: FLAT_SID,
        totalCostUSD: total,
        totalAPIDuration: 5120,
        totalAPIDurationWithoutRetries: 5120,
        totalToolDuration: 40,
        totalLinesAdded: 3,
        totalLinesRemoved: 1,
        totalDuration: 9000,
        startTime: 1_775_000_000_000,
        modelUsage: {
          'claude-opus-4-5': {
            inputTokens: 10,
            outputTokens: 20,
            cacheReadInputTokens: 0,
            cacheCreationInputTokens: 0,
            webSearchRequests: 0,
            costUSD: opus,
          },
          'claude-haiku-4-5': {
            inputTokens: 1,
            outputTokens: 2,
            cacheReadInputTokens: 0,
            cacheCreationInputTokens: 0,
            webSearchRequests: 0,
            costUSD: haiku,
          },
        },
      });
    lines.push(
      costState(0.5, 0.4, 0.1),
      JSON.stringify({ type: 'cost-state', totalCostUSD: 'lots' }),
      costState(0.75, 0.6, 0.15),
    );
    writeFileSync(path.join(ws.source, `${FLAT_SID}.jsonl`), `${lines.join('\n')}\n`);
    const summary = await importTranscripts({
      harness: 'claude-code',
      sourceDir: ws.source,
      dataDir: ws.data,
    });
    expect(summary.reports).toEqual([
      expect.objectContaining({
        kind: 'skipped-record',
        line: lines.length - 1,
        reason: expect.stringContaining('cost-state without a readable totalCostUSD') as string,
      }),
    ]);
    const main = (await readStore(ws.data)).get(`claude-${FLAT_SID}`)!;
    expect(dataOf(main, 'session/cost')).toEqual([
      { usd: 0.5, byModel: { 'claude-opus-4-5': 0.4, 'claude-haiku-4-5': 0.1 } },
      { usd: 0.75, byModel: { 'claude-opus-4-5': 0.6, 'claude-haiku-4-5': 0.15 } },
    ]);
    expect(importedLogViolations(main.events)).toEqual([]);
  });

  /** Only the main session is stored; the warmup agent file is one `skipped-file` report. */
  const expectWarmupSkipped = async (summary: ImportSummary, reason: string): Promise<void> => {
    expect(summary).toMatchObject({ imported: 1, skipped: 1, failed: 0 });
    expect(summary.reports).toEqual([
      {
        file: path.join(ws.source, 'agent-9e9e9e9e.jsonl'),
        line: null,
        kind: 'skipped-file',
        reason: expect.stringContaining(reason) as string,
      },
    ]);
    expect([...(await readStore(ws.data)).keys()]).toEqual([`claude-${FLAT_SID}`]);
  };

  it('a warmup agent file is skipped with a report naming the file, not shown as a child', async () => {
    const summary = await importFlat({
      [`${FLAT_SID}.jsonl`]: `${FLAT_SID}.jsonl`,
      'agent-9e9e9e9e.jsonl': 'agent-9e9e9e9e.jsonl',
    });
    await expectWarmupSkipped(summary, 'warmup agent');
  });

  it('the end of a file writes nothing: an open turn stays open, its calls unanswered, until later lines close it', async () => {
    mkdirSync(ws.source, { recursive: true });
    const lines = readFileSync(path.join(FLAT, `${FLAT_SID}.jsonl`), 'utf8')
      .trimEnd()
      .split('\n');
    const main = path.join(ws.source, `${FLAT_SID}.jsonl`);
    const importAs = async (kept: readonly string[]) => {
      writeFileSync(main, `${kept.join('\n')}\n`);
      await importTranscripts({ harness: 'claude-code', sourceDir: ws.source, dataDir: ws.data });
      return (await readStore(ws.data)).get(`claude-${FLAT_SID}`)!;
    };
    const unknown = (log: Awaited<ReturnType<typeof importAs>>) =>
      dataOf<{ code?: string }>(log, 'tool/result').filter((r) => r.code === 'TOOL_OUTCOME_UNKNOWN');

    // Cut after the Task call (no result yet): no closer, no unknown-outcome result.
    const calling = await importAs(lines.slice(0, 3));
    expect(calling.events.at(-1)).toMatchObject({ type: 'tool/call', data: { callId: 'toolu_task1' } });
    expect(dataOf(calling, 'turn/end')).toEqual([]);
    expect(unknown(calling)).toEqual([]);

    // Cut after the final answer (its `turn_duration` not written yet): still open.
    const answered = await importAs(lines.slice(0, 5));
    expect(answered.events.at(-1)!.type).toBe('assistant/message');
    expect(dataOf(answered, 'turn/end')).toEqual([]);
    expect(answered.events.slice(0, calling.events.length)).toEqual(calling.events);

    // The harness's end marker, written later, closes it where it stands.
    const closed = await importAs(lines.slice(0, 6));
    expect(closed.events.slice(0, answered.events.length)).toEqual(answered.events);
    expect(closed.events.at(-1)).toMatchObject({ type: 'turn/end', data: { reason: 'completed' } });
    expect(unknown(closed)).toEqual([]);
    expect(closed.repairs).toEqual([]);
  });

  /** The warmup agent's lines without its `Warmup` prompt line: the canned reply alone. */
  const promptlessWarmup = (): string[] =>
    readFileSync(path.join(FLAT, 'agent-9e9e9e9e.jsonl'), 'utf8').trimEnd().split('\n').slice(1);

  it('a warmup agent file without its prompt line (one reply, no tool call) is skipped as a warmup, not listed as an untitled child', async () => {
    mkdirSync(ws.source, { recursive: true });
    copyFileSync(path.join(FLAT, `${FLAT_SID}.jsonl`), path.join(ws.source, `${FLAT_SID}.jsonl`));
    const reply = promptlessWarmup();
    // Streamed as two lines of one response: still one reply.
    const streamed = JSON.parse(reply[0]!) as { uuid: string; message: { content: unknown[] } };
    const chunk = JSON.stringify({ ...streamed, uuid: 'w3', message: { ...streamed.message, content: [] } });
    writeFileSync(path.join(ws.source, 'agent-9e9e9e9e.jsonl'), `${[...reply, chunk].join('\n')}\n`);
    const summary = await importTranscripts({
      harness: 'claude-code',
      sourceDir: ws.source,
      dataDir: ws.data,
    });
    await expectWarmupSkipped(summary, 'warmup agent (no prompt, one reply calling no tool)');
  });

  it('a child without a prompt line is shown when it is more than one reply, or its reply calls a tool', async () => {
    mkdirSync(ws.source, { recursive: true });
    const [reply] = promptlessWarmup();
    const line = JSON.parse(reply!) as { uuid: string; message: { id: string; content: unknown[] } };
    const withLine = (name: string, extra: Record<string, unknown>): void => {
      const agentId = name.slice('agent-'.length);
      const first = JSON.stringify({ ...line, agentId });
      const next = JSON.stringify({ ...line, agentId, ...extra });
      writeFileSync(path.join(ws.source, `${name}.jsonl`), `${first}\n${next}\n`);
    };
    // A second response after the first.
    withLine('agent-5a5a5a5a', { uuid: 'w4', message: { ...line.message, id: 'msg_w2' } });
    // One response whose second streamed chunk calls a tool.
    withLine('agent-6b6b6b6b', {
      uuid: 'w5',
      message: { ...line.message, content: [{ type: 'tool_use', id: 'toolu_w', name: 'Bash', input: {} }] },
    });
    const summary = await importTranscripts({
      harness: 'claude-code',
      sourceDir: ws.source,
      dataDir: ws.data,
    });
    expect(summary).toMatchObject({ imported: 2, skipped: 0, failed: 0 });
    expect([...(await readStore(ws.data)).keys()].sort()).toEqual([
      `claude-${FLAT_SID}-agent-5a5a5a5a`,
      `claude-${FLAT_SID}-agent-6b6b6b6b`,
    ]);
  });
});

describe('Claude Code 1.0 inline sidechains', () => {
  const INLINE_SID = '1e1e1e1e-1111-4222-8333-444455556666';
  const parentId = `claude-${INLINE_SID}`;

  it('each sidechain is a subagent child labelled from its Task call; sidechain lines are not the parent’s events', async () => {
    copyInto(path.join(FIXTURES, 'inline-1.0'), ws.source);
    const summary = await importTranscripts({
      harness: 'claude-code',
      sourceDir: ws.source,
      dataDir: ws.data,
    });
    expect(summary).toMatchObject({ imported: 3, failed: 0, skipped: 0, reports: [] });
    const store = await readStore(ws.data);
    const parent = store.get(parentId)!;
    expect(dataOf<{ title: string }>(parent, 'session/title').at(-1)?.title).toBe(
      'Todo app: models and components',
    );
    expect(dataOf<{ name: string }>(parent, 'tool/call').map((c) => c.name)).toEqual(['Task', 'Task']);
    expect(JSON.stringify(parent.events)).not.toContain('TodoItem.tsx');
    const children = [...store.values()].filter((s) => s.header.parentSession === parentId);
    const labels = children.map((child) => {
      expect(child.header).toMatchObject({ origin: 'subagent', delegationDepth: 1, isSeeded: false });
      expect(child.events[0]!.type).toBe('subagent/descriptor');
      expect(dataOf<{ author: string }>(child, 'user/message')[0]?.author).toBe('agent');
      expect(importedLogViolations(child.events)).toEqual([]);
      // The identity unit takes the last descriptor: a sidechain written ahead of its Task call
      // (file order is not time order in 1.0) is labelled by a second one where the call is read.
      const last = child.events.filter((e) => e.type === 'subagent/descriptor').at(-1)!;
      const parsed = parseSubagentDescriptor(last.data);
      return parsed.kind === 'ok' ? parsed.descriptor.label : undefined;
    });
    expect(labels.sort()).toEqual(['Build todo components', 'Create data models']);
  });
});

describe('a Claude Code 2.0 agent file without its parent', () => {
  it('imports as a child of the absent parent, with a note naming it', async () => {
    mkdirSync(ws.source, { recursive: true });
    copyFileSync(
      path.join(FIXTURES, 'flat-2.0', '-home-dev-tool', 'agent-1a2b3c4d.jsonl'),
      path.join(ws.source, 'agent-1a2b3c4d.jsonl'),
    );
    const summary = await importTranscripts({
      harness: 'claude-code',
      sourceDir: ws.source,
      dataDir: ws.data,
    });
    expect(summary).toMatchObject({ imported: 1, failed: 0 });
    const parentId = 'claude-7c7c7c7c-1111-4222-8333-444455556666';
    const [child] = (await readStore(ws.data)).values();
    expect(child!.header).toMatchObject({ origin: 'subagent', parentSession: parentId });
    expect(summary.reports).toContainEqual(
      expect.objectContaining({
        kind: 'note',
        reason: expect.stringContaining(`parent session ${parentId}`),
      }),
    );
  });
});

describe('Claude Code slash commands', () => {
  const CMD_SID = '3c3c3c3c-1111-4222-8333-444455556666';
  const at = (second: number) => `2026-05-01T10:00:${String(second).padStart(2, '0')}.000Z`;
  const user = (uuid: string, second: number, content: string, extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      type: 'user',
      uuid,
      sessionId: CMD_SID,
      cwd: '/home/dev/app',
      timestamp: at(second),
      message: { role: 'user', content },
      ...extra,
    });
  const reply = (uuid: string, second: number, text: string) =>
    JSON.stringify({
      type: 'assistant',
      uuid,
      sessionId: CMD_SID,
      timestamp: at(second),
      message: {
        id: `msg-${uuid}`,
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [{ type: 'text', text }],
      },
    });
  // As 2.1.328 writes a `/compact` (the bed's compaction scenario), its output coloured as a terminal shows it.
  const STDOUT = '\u001b[2mCompacted (ctrl+o to see full summary)\u001b[22m';
  const LINES = [
    user('u1', 1, 'Please say hello.'),
    reply('a1', 2, 'Hello!'),
    user('u2', 3, 'This session is being continued from a previous conversation.', {
      isCompactSummary: true,
    }),
    user(
      'u3',
      3,
      '<local-command-caveat>The command below was run directly in Claude Code.</local-command-caveat>',
      {
        isMeta: true,
      },
    ),
    user(
      'u4',
      4,
      '<command-name>/compact</command-name>\n            <command-message>compact</command-message>\n            <command-args></command-args>',
    ),
    user('u5', 4, `<local-command-stdout>${STDOUT}</local-command-stdout>`),
    user(
      'u6',
      5,
      '<command-message>greet</command-message>\n<command-name>/greet</command-name>\n<command-args>Ada</command-args>',
    ),
    user('u7', 5, 'Say hello to Ada politely.\n', { isMeta: true }),
    reply('a2', 6, 'Hello, Ada.'),
  ];

  it('a command and its output are their own events, never user text, and a command opens a turn', async () => {
    mkdirSync(ws.source, { recursive: true });
    writeFileSync(path.join(ws.source, `${CMD_SID}.jsonl`), `${LINES.join('\n')}\n`);
    const summary = await importTranscripts({
      harness: 'claude-code',
      sourceDir: ws.source,
      dataDir: ws.data,
    });
    expect(summary).toMatchObject({ imported: 1, failed: 0, skipped: 0, reports: [] });
    const main = (await readStore(ws.data)).get(`claude-${CMD_SID}`)!;
    expect(dataOf(main, 'session/command')).toEqual([{ name: 'compact' }, { name: 'greet', args: 'Ada' }]);
    expect(dataOf(main, 'session/command-output')).toEqual([{ text: STDOUT, stream: 'stdout' }]);
    const texts = dataOf<{ content: unknown }>(main, 'user/message').map((m) => JSON.stringify(m.content));
    expect(texts.filter((t) => /command-name|local-command-stdout/.test(t))).toEqual([]);
    expect(dataOf(main, 'user/message').filter((m) => (m as { author: string }).author === 'human')).toEqual([
      { content: 'Please say hello.', author: 'human' },
    ]);
    // Each command opens a turn after closing the one before; its output follows it in that turn.
    const types = main.events.map((e) => e.type);
    const compact = types.indexOf('session/command');
    expect(types.slice(compact - 2, compact + 2)).toEqual([
      'turn/end',
      'turn/start',
      'session/command',
      'session/command-output',
    ]);
    expect(types.lastIndexOf('session/command') - 1).toBe(types.lastIndexOf('turn/start'));
    expect(dataOf<{ title: string }>(main, 'session/title').map((t) => t.title)).toEqual([
      'Please say hello.',
    ]);
    expect(importedLogViolations(main.events)).toEqual([]);
  });
});
