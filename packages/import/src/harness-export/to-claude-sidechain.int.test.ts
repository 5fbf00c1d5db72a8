import { appendFileSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ExportDocument } from '@strand/export';
import { newSessionHeader, SessionId, SessionSeq, type SessionEvent } from '@strand/session';
import { importTranscripts } from '../run/import-transcripts.js';
import { readStore, workspace, type Workspace } from '../testing/fixture-dirs.js';
import { HarnessWriteError } from './errors.js';
import { exportToClaude } from './to-claude.js';
import { exportToCodex } from './to-codex.js';
import { exportToGemini } from './to-gemini.js';

/**
 * A session with a subagent child, exported to Claude Code (the parent file and the child as its
 * sidechain) and read back by Strand's own Claude Code importer — what `strand import
 * claude-code` runs: the parent and the child come back linked as parent and child.
 */

const start = Date.UTC(2026, 11, 5, 9, 30);
const PARENT = SessionId('s-parent');
const CHILD = SessionId('s-child');
const CWD = '/home/ana/shop';

function documentOf(
  header: ExportDocument['header'],
  entries: readonly (readonly [string, unknown])[],
): ExportDocument {
  const events: SessionEvent[] = entries.map(([type, data], i) => ({
    type,
    seq: SessionSeq(i),
    time: start + i * 1000,
    data: data as SessionEvent['data'],
  }));
  return { header, events };
}

const parent = documentOf(newSessionHeader({ id: PARENT, createdAt: start, cwd: CWD }), [
  ['model/selection', { provider: 'anthropic', model: 'claude-sonnet-4-5' }],
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

const child = documentOf(
  newSessionHeader({
    id: CHILD,
    createdAt: start,
    cwd: CWD,
    parentSession: PARENT,
    origin: 'subagent',
    delegationDepth: 1,
  }),
  [
    ['subagent/descriptor', { version: 2, mode: 'one-shot', label: 'counter' }],
    ['turn/start', {}],
    ['user/message', { content: 'Count the files', author: 'agent' }],
    ['tool/call', { callId: 'k1', name: 'Bash', arguments: '{"command":"ls | wc -l"}' }],
    ['tool/result', { callId: 'k1', content: '2' }],
    ['step/end', {}],
    ['assistant/message', { content: '2 files.' }],
    ['turn/end', { reason: 'completed' }],
  ],
);

let ws: Workspace;
beforeEach(() => {
  ws = workspace('strand-sidechain-');
});
afterEach(() => ws.dispose());

const claudeDir = (): string => path.join(ws.root, 'home', '.claude');

/** Every file under `dir` with its bytes, by relative path. */
function filesUnder(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (at: string): void => {
    for (const name of readdirSync(at)) {
      const full = path.join(at, name);
      if (statSync(full).isDirectory()) walk(full);
      else out.set(path.relative(dir, full), readFileSync(full, 'utf8'));
    }
  };
  walk(dir);
  return out;
}

describe('a subagent tree exported to Claude Code', () => {
  it('writes the child as a sidechain in Claude Code 2.1 layout and lists it in children', async () => {
    const written = await exportToClaude(parent, claudeDir(), {
      children: [child],
      others: ['s-grandchild'],
    });
    const project = path.dirname(written.path);
    expect(written.children).toHaveLength(1);
    const sidechain = written.children[0]!;
    expect(path.dirname(sidechain)).toBe(path.join(project, written.resumeId, 'subagents'));
    expect(path.basename(sidechain)).toMatch(/^agent-a[0-9a-f]{16}\.jsonl$/);
    expect(JSON.parse(readFileSync(sidechain.replace(/\.jsonl$/, '.meta.json'), 'utf8'))).toMatchObject({
      description: 'counter',
    });
    expect(written.leftOut).toContain(
      "1 × subagent not carried (a subagent's own, or unreadable): s-grandchild",
    );
  });

  it('imports back as the parent and its child, linked, the child labelled and holding its own turn', async () => {
    await exportToClaude(parent, claudeDir(), { children: [child], others: [] });
    const summary = await importTranscripts({
      harness: 'claude-code',
      sourceDir: path.join(claudeDir(), 'projects'),
      dataDir: ws.data,
    });
    expect(summary.failed).toBe(0);
    const store = await readStore(ws.data);
    const logs = [...store.values()];
    const main = logs.filter((s) => s.header.parentSession === undefined);
    expect(main).toHaveLength(1);
    const kids = logs.filter((s) => s.header.parentSession === main[0]!.header.id);
    expect(kids).toHaveLength(1);
    const kid = kids[0]!;
    expect(kid.header.origin).toBe('subagent');
    expect(kid.events[0]).toMatchObject({ type: 'subagent/descriptor', data: { label: 'counter' } });
    const said = (s: typeof kid, type: string): unknown[] =>
      s.events.filter((e) => e.type === type).map((e) => (e.data as { content?: unknown }).content);
    expect(said(kid, 'user/message')).toEqual(['Count the files']);
    expect(said(kid, 'tool/result')).toEqual(['2']);
    expect(said(kid, 'assistant/message').at(-1)).toBe('2 files.');
    expect(said(main[0]!, 'user/message')).toEqual(['Count the files with a helper']);
    expect(said(main[0]!, 'assistant/message').at(-1)).toBe('There are 2 files.');
  });

  it('writes the same bytes again, and refuses a sidechain Claude Code continued, writing nothing', async () => {
    const first = await exportToClaude(parent, claudeDir(), { children: [child], others: [] });
    const before = filesUnder(claudeDir());
    await exportToClaude(parent, claudeDir(), { children: [child], others: [] });
    expect(filesUnder(claudeDir())).toEqual(before);
    appendFileSync(first.children[0]!, '{"type":"user"}\n');
    const continued = filesUnder(claudeDir());
    // A later cut of the parent would replace its file; the continued child refuses the export whole.
    const grown: ExportDocument = {
      ...parent,
      events: [...parent.events, { type: 'turn/start', seq: SessionSeq(8), time: start + 8000, data: {} }],
    };
    const failure = await exportToClaude(grown, claudeDir(), { children: [child], others: [] }).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(HarnessWriteError);
    expect(failure).toMatchObject({ reason: 'not-ours' });
    expect(filesUnder(claudeDir())).toEqual(continued);
  });

  it('names the children in the left-out line for Codex and Gemini CLI, which have no child format', async () => {
    const subagents = { children: [child], others: ['s-grandchild'] };
    const codex = await exportToCodex(parent, path.join(ws.root, 'home', '.codex'), subagents);
    const gemini = await exportToGemini(parent, path.join(ws.root, 'home', '.gemini'), subagents);
    expect(codex.children).toEqual([]);
    expect(codex.leftOut).toContain(
      '2 × subagent not carried (Codex has no child format): s-child, s-grandchild',
    );
    expect(gemini.children).toEqual([]);
    expect(gemini.leftOut).toContain(
      '2 × subagent not carried (Gemini CLI has no child format): s-child, s-grandchild',
    );
  });
});
