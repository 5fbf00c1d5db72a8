import fc from 'fast-check';
import { newSessionHeader, SessionId } from '@strand/session';
import { describe, expect, it } from 'vitest';
import { documentOf, jsonLines } from '../test-document.js';
import type { ExportDocument } from '../document.js';
import { claudeAgentId, claudeToolUseId } from './ids.js';
import { renderClaudeTranscript, strandExportOf } from './transcript.js';

const CHILD = 's-child-1';

/** A parent whose second turn spawns a child with Strand's `spawn_agent` (its result names the child). */
const parent = documentOf([
  ['model/selection', { provider: 'anthropic', model: 'claude-sonnet-4-5' }],
  ['turn/start', {}],
  ['user/message', { content: 'Hello', author: 'human' }],
  ['assistant/message', { content: 'Hi.' }],
  ['turn/end', { reason: 'completed' }],
  ['turn/start', {}],
  ['user/message', { content: 'Count the files with a helper', author: 'human' }],
  [
    'tool/call',
    { callId: 'c1', name: 'spawn_agent', arguments: '{"task":"Count the files","label":"counter"}' },
  ],
  ['tool/result', { callId: 'c1', content: `Spawned one-shot agent "counter" (id ${CHILD}).\n2 files.` }],
  ['step/end', {}],
  ['assistant/message', { content: 'There are 2 files.' }],
  ['turn/end', { reason: 'completed' }],
]);

/** The child, forked: the parent's first turn inherited, then its descriptor and its own turn. */
function childOf(id: string, task: string, label?: string): ExportDocument {
  const document = documentOf([
    ['model/selection', { provider: 'anthropic', model: 'claude-sonnet-4-5' }],
    ['turn/start', {}],
    ['user/message', { content: 'Hello', author: 'human' }],
    ['assistant/message', { content: 'Hi.' }],
    ['turn/end', { reason: 'completed' }],
    ['subagent/descriptor', { version: 2, mode: 'one-shot', ...(label === undefined ? {} : { label }) }],
    ['turn/start', {}],
    ['user/message', { content: task, author: 'agent' }],
    ['tool/call', { callId: 'k1', name: 'Bash', arguments: '{"command":"ls | wc -l"}' }],
    ['tool/result', { callId: 'k1', content: '2' }],
    ['step/end', {}],
    ['assistant/message', { content: '2 files.' }],
    ['turn/end', { reason: 'completed' }],
  ]);
  return {
    ...document,
    header: newSessionHeader({
      id: SessionId(id),
      createdAt: document.header.createdAt,
      cwd: '/home/ana/shop',
      parentSession: SessionId('s-export-1'),
      origin: 'subagent',
      delegationDepth: 1,
    }),
  };
}

describe('renderClaudeTranscript with children', () => {
  it("writes a child's own turns as Claude Code's sidechain, linked from the call that started it", () => {
    const out = renderClaudeTranscript(parent, [childOf(CHILD, 'Count the files', 'counter')]);
    expect(out.sidechains).toHaveLength(1);
    const side = out.sidechains[0]!;
    const agentId = claudeAgentId(CHILD);
    expect(agentId).toMatch(/^a[0-9a-f]{16}$/);
    expect(side).toMatchObject({
      origin: CHILD,
      agentId,
      folder: `${out.sessionId}/subagents`,
      fileName: `agent-${agentId}.jsonl`,
      metaFileName: `agent-${agentId}.meta.json`,
    });
    // The meta file names the parent's call, the label and a type, as Claude Code 2.1 writes it.
    expect(JSON.parse(side.metaText)).toEqual({
      agentType: 'general-purpose',
      description: 'counter',
      toolUseId: claudeToolUseId('c1'),
    });
    expect(side.metaText.endsWith('\n')).toBe(false);
    const lines = jsonLines(side.text);
    // Only the child's own turn: the inherited one is the parent's.
    expect(lines.map((l) => l.type)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(lines[0]!.message).toEqual({ role: 'user', content: 'Count the files' });
    expect(lines[0]!.parentUuid).toBeNull();
    for (let i = 1; i < lines.length; i++) expect(lines[i]!.parentUuid).toBe(lines[i - 1]!.uuid);
    for (const line of lines)
      expect(line).toMatchObject({
        isSidechain: true,
        agentId,
        sessionId: out.sessionId,
        cwd: '/home/ana/shop',
      });
    expect(strandExportOf(side.text)).toMatchObject({ origin: CHILD, cut: 12, running: false });
    // The parent's result of that call carries the agent, as Claude Code's `Agent` result does.
    const result = jsonLines(out.text).find(
      (l) => (l as { toolUseResult?: unknown }).toolUseResult !== undefined,
    );
    expect(result?.toolUseResult).toEqual({
      status: 'completed',
      prompt: 'Count the files',
      agentId,
      agentType: 'general-purpose',
      content: [{ type: 'text', text: `Spawned one-shot agent "counter" (id ${CHILD}).\n2 files.` }],
    });
    expect(jsonLines(out.text).every((l) => l.isSidechain === false || l.type === 'custom-title')).toBe(true);
  });

  it('gives the same bytes for the same documents', () => {
    const a = renderClaudeTranscript(parent, [childOf(CHILD, 'Count the files', 'counter')]);
    const b = renderClaudeTranscript(parent, [childOf(CHILD, 'Count the files', 'counter')]);
    expect(b).toEqual(a);
  });

  it('links a child by its prompt to a Claude Code `Agent` call, taking the type and description from it', () => {
    const claudeParent = documentOf([
      ['turn/start', {}],
      ['user/message', { content: 'Delegate it', author: 'human' }],
      [
        'tool/call',
        {
          callId: 'toolu_1',
          name: 'Agent',
          arguments: JSON.stringify({ description: 'Count', prompt: 'SUBTASK', subagent_type: 'Explore' }),
        },
      ],
      ['tool/result', { callId: 'toolu_1', content: 'There are 2 files.' }],
      ['turn/end', { reason: 'completed' }],
    ]);
    const out = renderClaudeTranscript(claudeParent, [childOf('claude-x-agent-a1', 'SUBTASK')]);
    expect(JSON.parse(out.sidechains[0]!.metaText)).toEqual({
      agentType: 'Explore',
      description: 'Count',
      toolUseId: 'toolu_1',
    });
  });

  it('writes a child no call started, unlinked, and names one with no conversation as left out', () => {
    const empty = { ...childOf('s-empty', 'x'), events: childOf('s-empty', 'x').events.slice(0, 6) };
    const out = renderClaudeTranscript(parent, [childOf('s-stray', 'Something else'), empty]);
    expect(out.sidechains.map((s) => s.origin)).toEqual(['s-stray']);
    expect(JSON.parse(out.sidechains[0]!.metaText)).toEqual({ agentType: 'general-purpose' });
    expect(out.leftOut).toContain('subagent s-empty has no conversation yet: not carried');
    expect(jsonLines(out.text).some((l) => 'toolUseResult' in l)).toBe(false);
  });

  it('gives the call of a child with no conversation yet no agent, the child named as left out', () => {
    const started = childOf(CHILD, 'Count the files', 'counter');
    const out = renderClaudeTranscript(parent, [{ ...started, events: started.events.slice(0, 6) }]);
    expect(out.sidechains).toEqual([]);
    expect(out.leftOut).toContain(`subagent ${CHILD} has no conversation yet: not carried`);
    expect(jsonLines(out.text).some((l) => 'toolUseResult' in l)).toBe(false);
  });

  it('links every child to the call that started it, whatever order the children come in (property)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(
          fc.string({ minLength: 1, maxLength: 8 }).filter((t) => t.trim() !== ''),
          {
            minLength: 1,
            maxLength: 5,
          },
        ),
        fc.boolean(),
        (tasks, byId) => {
          // One spawning call per child; half the time its result names the child, else only its prompt matches.
          const ids = tasks.map((_, i) => `s-kid-${i}`);
          const entries: [string, unknown][] = [
            ['turn/start', {}],
            ['user/message', { content: 'Go', author: 'human' }],
          ];
          tasks.forEach((task, i) => {
            entries.push([
              'tool/call',
              { callId: `c${i}`, name: 'spawn_agent', arguments: JSON.stringify({ task }) },
            ]);
            entries.push(['tool/result', { callId: `c${i}`, content: byId ? `(id ${ids[i]})` : 'done' }]);
            entries.push(['step/end', {}]);
          });
          entries.push(['turn/end', { reason: 'completed' }]);
          const children = tasks.map((task, i) => childOf(ids[i]!, task)).reverse();
          const out = renderClaudeTranscript(documentOf(entries), children);
          for (const side of out.sidechains) {
            const i = ids.indexOf(side.origin);
            expect(JSON.parse(side.metaText).toolUseId).toBe(claudeToolUseId(`c${i}`));
          }
          expect(out.sidechains).toHaveLength(tasks.length);
        },
      ),
    );
  });
});
