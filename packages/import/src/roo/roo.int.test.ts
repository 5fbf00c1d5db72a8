import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importTranscripts } from '../run/import-transcripts.js';
import {
  PACKAGE_SRC,
  copyInto,
  dataOf,
  importedLogViolations,
  readStore,
  workspace,
  type Workspace,
} from '../testing/fixture-dirs.js';

/**
 * Roo Code task folders written from its source (`fixtures/synthetic/`, see the Cline fixtures'
 * SOURCES.md): a task that delegated a subtask with `new_task`, and the subtask.
 */
const SYNTHETIC = path.join(PACKAGE_SRC, 'roo', 'fixtures', 'synthetic');
const PARENT = '0199e0a1-1111-7000-8000-000000000001';
const CHILD = '0199e0a1-2222-7000-8000-000000000002';

let ws: Workspace;
beforeEach(() => {
  ws = workspace();
});
afterEach(() => ws.dispose());

describe('Roo Code task folders', () => {
  it('a subtask is a child of the task that delegated it; titles and folders from the history items', async () => {
    copyInto(SYNTHETIC, ws.source);
    const summary = await importTranscripts({ harness: 'roo', sourceDir: ws.source, dataDir: ws.data });
    expect(summary).toMatchObject({ imported: 2, failed: 0, reports: [] });
    expect(summary.ignored).toEqual({ environment_details: 1, reasoning: 1 });
    const store = await readStore(ws.data);
    for (const log of store.values()) expect(importedLogViolations(log.events)).toEqual([]);
    const parent = store.get(`roo-${PARENT}`)!;
    const child = store.get(`roo-${CHILD}`)!;
    expect(parent.header).toMatchObject({
      source: { harness: 'roo', sourceId: PARENT },
      cwd: '/home/dev/proj',
    });
    expect(child.header).toMatchObject({
      parentSession: `roo-${PARENT}`,
      origin: 'subagent',
      delegationDepth: 1,
    });
    expect(child.events[0]!.type).toBe('subagent/descriptor');
    expect(dataOf(child, 'user/message')).toEqual([{ content: 'Write docs for utils.ts', author: 'agent' }]);
    expect(dataOf(parent, 'session/title')).toEqual([{ title: 'Refactor utils and write docs' }]);
    // The condensed-context summary is the harness's own text, kept where it was written.
    expect(dataOf(parent, 'user/message')).toEqual([
      { content: 'Refactor utils and write docs', author: 'human' },
      {
        content:
          '## Conversation summary\nThe user asked to refactor utils; docs were delegated and written.',
        author: 'system',
      },
    ]);
    expect(dataOf<{ usage: unknown }>(parent, 'assistant/message').map((m) => m.usage)).toEqual([
      { input: 2000, output: 60 },
      { input: 300, output: 20, cacheRead: 1900 },
    ]);
    expect(dataOf(parent, 'session/cost')).toEqual([{ usd: 0.01 }, { usd: 0.012 }]);
    expect(dataOf<{ name: string }>(parent, 'tool/call').map((c) => c.name)).toEqual(['new_task']);
  });
});
