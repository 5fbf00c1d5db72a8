import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  bedHarness,
  DRIVERS,
  dialogue,
  openWorkspace,
  startModelEndpoint,
  userText,
  type BedPart,
  type Workspace,
} from '@strand/harness-bed';
import { strandExportOf } from '@strand/export';
import { openJsonlPersistence, persistenceWriter } from '@strand/persistence';
import { Session, SessionId, newSessionHeader, type SessionEventInput } from '@strand/session';
import { exportToHome, harnessContext, short, type ExportedTo } from './testing/export-bed.js';

/**
 * A Strand session that delegated to a subagent, exported with `strand export --to claude-code`
 * (the child as Claude Code's own sidechain file) and resumed by the real Claude Code (the bed's
 * pin, offline against the bed's endpoint): the resume succeeds and sends the parent's
 * conversation — the call that started the child and its result included — and leaves the
 * sidechain as Strand wrote it; and Claude Code takes the sidechain for its own agent: its
 * `SendMessage` to the exported agent id resumes that agent with the child's conversation.
 */
const AT = Date.parse('2026-12-05T09:00:00Z');
const harness = 'claude-code';

let cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

const timed = (events: readonly Omit<SessionEventInput, 'time'>[]): SessionEventInput[] =>
  events.map((event, i) => ({ ...event, time: AT + i * 1000 }));

/**
 * A Strand session that spawned a child, stored in a fresh data folder; `exportTo` exports it
 * --to claude-code into the workspace's home (once the endpoint is prepared).
 */
async function exportedDelegator(
  name: string,
): Promise<{ workspace: Workspace; exportTo: () => ExportedTo }> {
  const workspace = await openWorkspace(name);
  cleanup.push(() => workspace.remove());
  const data = mkdtempSync(path.join(tmpdir(), 'strand-export-subagent-bed-'));
  cleanup.push(() => rmSync(data, { recursive: true, force: true }));
  const persistence = await openJsonlPersistence({ root: data });
  const store = async (
    header: ReturnType<typeof newSessionHeader>,
    events: readonly Omit<SessionEventInput, 'time'>[],
  ): Promise<void> => {
    const { incarnation } = await persistence.create({ header });
    await new Session({ header, incarnation, writer: persistenceWriter(persistence, header.id) }).append(
      timed(events),
    );
  };
  await store(newSessionHeader({ id: SessionId('delegator'), createdAt: AT, cwd: workspace.cwd }), [
    { type: 'model/selection', data: { provider: 'anthropic', model: 'claude-sonnet-4-5' } },
    { type: 'turn/start', data: {} },
    { type: 'user/message', data: { content: 'Please count the files with a helper.', author: 'human' } },
    {
      type: 'tool/call',
      data: { callId: 'c1', name: 'spawn_agent', arguments: '{"task":"Count the files."}' },
    },
    { type: 'tool/result', data: { callId: 'c1', content: 'Spawned one-shot agent (id helper).\n2 files.' } },
    { type: 'step/end', data: {} },
    { type: 'assistant/message', data: { content: 'There are 2 files.' } },
    { type: 'turn/end', data: { reason: 'completed' } },
  ]);
  await store(
    newSessionHeader({
      id: SessionId('helper'),
      createdAt: AT,
      cwd: workspace.cwd,
      parentSession: SessionId('delegator'),
      origin: 'subagent',
      delegationDepth: 1,
    }),
    [
      { type: 'subagent/descriptor', data: { version: 2, mode: 'one-shot', label: 'counter' } },
      { type: 'turn/start', data: {} },
      { type: 'user/message', data: { content: 'Count the files.', author: 'agent' } },
      { type: 'assistant/message', data: { content: '2 files.' } },
      { type: 'turn/end', data: { reason: 'completed' } },
    ],
  );
  await persistence.close();
  return {
    workspace,
    exportTo: () => exportToHome('delegator', harness, workspace.home, data),
  };
}

/** A request's messages as lines (`user text:…`), the harness's own context left out. */
const said = (messages: readonly { role: string; parts: readonly BedPart[] }[]): string[] =>
  messages.flatMap((m) => m.parts.filter((p) => !harnessContext(p)).map((p) => `${m.role} ${short(p)}`));

describe(
  'strand export --to claude-code with a subagent, resumed by the real Claude Code',
  { timeout: 300_000 },
  () => {
    const bed = bedHarness(harness);
    const version = bed.kind === 'missing' ? '' : `${harness} ${bed.installed.pin.version}`;
    it.skipIf(bed.kind === 'missing')(
      bed.kind === 'missing'
        ? bed.reason
        : `${version} resumes an export with a sidechain and sends the parent's conversation`,
      async () => {
        if (bed.kind === 'missing') return;
        const { workspace, exportTo } = await exportedDelegator(`${harness}-export-subagent`);
        const endpoint = await startModelEndpoint(
          dialogue({ threads: { main: [{ text: 'Continued here.' }] } }),
        );
        cleanup.push(() => endpoint.close());
        await DRIVERS[harness].prepare(workspace, endpoint);
        const { resumeId, children } = exportTo();
        expect(children).toHaveLength(1);
        const sidechain = readFileSync(children[0]!, 'utf8');

        const run = await DRIVERS[harness].prompt(bed.installed, workspace, endpoint, {
          text: 'Please go on.',
          resume: resumeId,
        });
        expect(endpoint.problems).toEqual([]);
        expect(run.code, run.stderr).toBe(0);
        const request = endpoint.exchanges.find((e) => e.thread === 'main')!.request;
        expect(said(request.messages)).toEqual([
          'user text:Please count the files with a helper.',
          'assistant call:spawn_agent {"task":"Count the files."}',
          'user result:Spawned one-shot agent (id helper).\n2 files.',
          'assistant text:There are 2 files.',
          'user text:Please go on.',
        ]);
        // The resume continued the parent; the sidechain is still Strand's untouched export.
        expect(readFileSync(children[0]!, 'utf8')).toBe(sidechain);
        expect(strandExportOf(sidechain)?.origin).toBe('helper');
      },
    );

    it.skipIf(bed.kind === 'missing')(
      bed.kind === 'missing'
        ? bed.reason
        : `${version} continues the exported agent by its id (SendMessage), with the child's conversation`,
      async () => {
        if (bed.kind === 'missing') return;
        const { workspace, exportTo } = await exportedDelegator(`${harness}-export-subagent-send`);
        let agentId = '';
        const NOTE = 'Count again please.';
        const endpoint = await startModelEndpoint(
          dialogue({
            // The resumed agent's request carries the note and not the parent's prompt.
            classify: (r) =>
              userText(r).includes(NOTE) && !userText(r).includes('Please go on.') ? 'child' : 'main',
            threads: {
              main: [
                // SendMessage is one of Claude Code's deferred tools: loaded through ToolSearch first.
                { toolCalls: [{ name: 'ToolSearch', input: { query: 'select:SendMessage' } }] },
                () => ({
                  toolCalls: [
                    { name: 'SendMessage', input: { to: agentId, summary: 'count again', message: NOTE } },
                  ],
                }),
                { text: 'Asked the helper again.' },
                { text: 'The helper answered.' },
              ],
              child: [{ text: 'Still 2 files.' }],
            },
          }),
        );
        cleanup.push(() => endpoint.close());
        await DRIVERS[harness].prepare(workspace, endpoint);
        const { resumeId, children } = exportTo();
        agentId = path.basename(children[0]!, '.jsonl').replace(/^agent-/, '');
        const run = await DRIVERS[harness].prompt(bed.installed, workspace, endpoint, {
          text: 'Please go on.',
          resume: resumeId,
          args: ['--allowedTools', 'SendMessage ToolSearch'],
        });
        expect(endpoint.problems).toEqual([]);
        expect(run.code, run.stderr).toBe(0);
        const sent = endpoint.exchanges.flatMap((e) => (e.thread === 'main' ? said(e.request.messages) : []));
        expect(sent.some((line) => line.includes(`"resumedAgentId":"${agentId}"`))).toBe(true);
        // The agent Claude Code resumed is the exported child: its task and reply, then the note.
        const child = endpoint.exchanges.find((e) => e.thread === 'child');
        expect(child, sent.join('\n')).toBeDefined();
        const lines = said(child!.request.messages);
        expect(lines.slice(0, 2)).toEqual(['user text:Count the files.', 'assistant text:2 files.']);
        expect(lines.some((line) => line.startsWith('user text:') && line.includes(NOTE))).toBe(true);
      },
    );
  },
);
