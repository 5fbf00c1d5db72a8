import { appendFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isImportError } from '../errors.js';
import { defaultSourceDir } from '../harnesses.js';
import { parseWatchSpec } from '../live/watch-spec.js';
import { importTranscripts } from '../run/import-transcripts.js';
import {
  PACKAGE_SRC,
  realFixtureDir,
  realFixturesSkipped,
  copyInto,
  dataOf,
  importedLogViolations,
  readStore,
  workspace,
  type Workspace,
} from '../testing/fixture-dirs.js';
import { aiderFacts, aiderId } from './peek.js';

const FIXTURES = path.join(PACKAGE_SRC, 'aider', 'fixtures');
const HISTORY = '.aider.chat.history.md';

let ws: Workspace;
beforeEach(() => {
  ws = workspace();
  mkdirSync(ws.source, { recursive: true });
});
afterEach(() => ws.dispose());

const aider = () => importTranscripts({ harness: 'aider', sourceDir: ws.source, dataDir: ws.data });
/** The Strand id of the `index`-th session of the history at `relative` under the source folder. */
const idOf = (relative: string, index: number): string =>
  aiderId(aiderFacts(path.join(ws.source, relative)).key, index);

describe('aider chat histories (synthetic, written as aider/io.py writes them)', () => {
  it('finds every history in a tree of projects, skipping node_modules and symlinks, one session per start', async () => {
    copyInto(path.join(FIXTURES, 'synthetic'), ws.source);
    // A link to a project outside the tree must not widen the import.
    const outside = path.join(ws.root, 'outside');
    copyInto(path.join(FIXTURES, 'synthetic', 'tools'), outside);
    symlinkSync(outside, path.join(ws.source, 'linked'));
    const summary = await aider();
    // webapp: sessions 0, 1 and 3 (2 only started and quit); tools/cli: 0 and 1.
    expect(summary).toMatchObject({ imported: 5, failed: 0, skipped: 0, reports: [] });
    expect(summary.ignored).toEqual({ interrupt: 1, 'blank prompt': 1 });
    const store = await readStore(ws.data);
    // Aider's own running cost of each session (`$… session`, on the Tokens line or the line
    // after it) is the harness's figure, kept beside Strand's: one session/cost per statement.
    const costs = (id: string) => dataOf<{ usd: number }>(store.get(id)!, 'session/cost').map((c) => c.usd);
    expect(costs(idOf(`webapp/${HISTORY}`, 0))).toEqual([0.02, 0.02, 0.03]);
    expect(costs(idOf(`tools/cli/${HISTORY}`, 0)).concat(costs(idOf(`tools/cli/${HISTORY}`, 1)))).toEqual([
      0.000123,
    ]);
    expect([...store.keys()].sort()).toEqual(
      [
        idOf(`webapp/${HISTORY}`, 0),
        idOf(`webapp/${HISTORY}`, 1),
        idOf(`webapp/${HISTORY}`, 3),
        idOf(`tools/cli/${HISTORY}`, 0),
        idOf(`tools/cli/${HISTORY}`, 1),
      ].sort(),
    );
    for (const log of store.values()) {
      expect(importedLogViolations(log.events)).toEqual([]);
      expect(log.header.source?.harness).toBe('aider');
    }
    const first = store.get(idOf(`webapp/${HISTORY}`, 0))!;
    expect(first.header).toMatchObject({
      cwd: path.join(ws.source, 'webapp'),
      createdAt: new Date(2026, 2, 1, 9, 0, 0).getTime(),
    });
    expect(dataOf(first, 'user/message').filter((m) => m.author === 'human')).toEqual([
      { content: '/add app.py', author: 'human' },
      { content: 'Add a /health route to app.py.\nIt should return {"ok": true}.', author: 'human' },
      { content: '/ask why Flask and not FastAPI?', author: 'human' },
      { content: 'Now write the tests', author: 'human' },
      { content: '/clear', author: 'human' },
      { content: '/run pytest -q', author: 'human' },
    ]);
    const replies = dataOf<{ content: string; usage?: Record<string, number> }>(first, 'assistant/message');
    // A Markdown heading and quote the model wrote stay in its reply; the edit block is reply text.
    expect(replies[0]!.content).toMatch(/^#### Plan\n\n> The route goes beside the others\.\n\napp\.py\n/);
    expect(replies[0]!.content).toContain('<<<<<<< SEARCH\napp = Flask(__name__)\n=======');
    // "sent" holds the cache reads and the cache writes aider adds: fresh input is the rest.
    expect(replies.map((r) => r.usage)).toEqual([
      { input: 7400, output: 518, cacheCreation: 1200, cacheRead: 3400 },
      { input: 100, output: 31, cacheRead: 2000 },
      { input: 2500, output: 9 },
    ]);
    const notes = dataOf(first, 'user/message')
      .filter((m) => m.author === 'system')
      .map((m) => m.content);
    expect(notes).toContain('Applied edit to app.py');
    expect(notes).toContain('Commit 1a2b3c4 feat: Add /health route');
    expect(dataOf(first, 'request/header')).toEqual([
      { provider: 'anthropic', model: 'anthropic/claude-sonnet-4-20250514' },
    ]);
    // ^C while the reply streamed: that turn was aborted; the others completed.
    expect(dataOf(first, 'turn/end').map((e) => e.reason)).toEqual([
      'completed',
      'completed',
      'completed',
      'aborted',
      'completed',
      'completed',
    ]);
    expect(dataOf<{ title: string }>(first, 'session/title').map((t) => t.title)).toEqual([
      'Add a /health route to app.py. It should return {"ok": true}.',
    ]);

    const architect = store.get(idOf(`webapp/${HISTORY}`, 1))!;
    // The architect's reply, then its editor model's once "Edit the files?" was answered yes.
    expect(dataOf(architect, 'request/header')).toEqual([
      { provider: 'openrouter', model: 'openrouter/deepseek/deepseek-r1' },
      { provider: 'openrouter', model: 'openrouter/deepseek/deepseek-chat' },
    ]);
    // The reasoning aider keeps inside its tags is left out of the reply.
    expect(dataOf(architect, 'assistant/message')[0]).toEqual({
      content: 'Change the decorator in app.py to `/healthz`.',
      usage: { input: 3000, output: 140 },
    });
    expect(dataOf(architect, 'turn/end').at(-1)).toEqual({
      reason: 'error',
      error: 'litellm.APIConnectionError: Connection error.',
    });

    const old = store.get(idOf(`tools/cli/${HISTORY}`, 0))!;
    // 0.46: exact counts with separators, the cost per `request`, `Models:` naming the model.
    expect(dataOf(old, 'assistant/message')[0]).toMatchObject({ usage: { input: 1234, output: 56 } });
    expect(dataOf(old, 'request/header')).toEqual([{ provider: 'openai', model: 'gpt-4o' }]);
  });

  it('a reply the file ends with waits for the next line; appending extends the sessions, never replaces them', async () => {
    copyInto(path.join(FIXTURES, 'synthetic', 'webapp', HISTORY), path.join(ws.source, HISTORY));
    await aider();
    const last = idOf(HISTORY, 3);
    expect(dataOf((await readStore(ws.data)).get(last)!, 'assistant/message')).toEqual([]);
    // Aider writes the usage line after the reply; then the next session starts, and its prompt
    // is read once the blank line that opens the reply after it shows the prompt complete.
    appendFileSync(
      path.join(ws.source, HISTORY),
      '> Tokens: 800 sent, 12 received.  \n\n# aider chat started at 2026-03-04 10:00:00\n\n#### hi again  \n\n',
    );
    const summary = await aider();
    expect(summary).toMatchObject({ imported: 1, replaced: 0, failed: 0 });
    expect(summary.sessions.filter((s) => s.outcome === 'appended').map((s) => s.id)).toEqual([last]);
    const store = await readStore(ws.data);
    expect(dataOf(store.get(last)!, 'assistant/message')).toEqual([
      { content: 'The README explains how to run the app.', usage: { input: 800, output: 12 } },
    ]);
    expect(dataOf(store.get(idOf(HISTORY, 4))!, 'user/message')).toEqual([
      { content: 'hi again', author: 'human' },
    ]);
    expect(await aider()).toMatchObject({ imported: 0, updated: 0, failed: 0 });
  });
});

// Public histories are kept beside the repository, never in it (`STRAND_REAL_FIXTURES`/aider,
// with their sources and licenses); without them the synthetic suites cover the same lines.
const REAL_AIDER = realFixtureDir('aider');

describe.skipIf(REAL_AIDER === undefined)(
  REAL_AIDER === undefined ? realFixturesSkipped('aider') : 'aider chat histories (real, public)',
  () => {
    it('imports the public histories with no unknown lines', async () => {
      copyInto(REAL_AIDER!, ws.source);
      const summary = await aider();
      expect(summary).toMatchObject({ failed: 0, skipped: 0, reports: [] });
      // monochromatic: 10 of 15 sessions hold a prompt; mozgoslav: both.
      expect(summary.imported).toBe(12);
      const store = await readStore(ws.data);
      for (const log of store.values()) expect(importedLogViolations(log.events)).toEqual([]);
      const russian = store.get(idOf(`mozgoslav/${HISTORY}`, 1))!;
      const replies = dataOf<{ content: string; usage?: unknown }>(russian, 'assistant/message');
      expect(replies).toHaveLength(2);
      expect(replies[0]!.content.startsWith('Привет! Готов к работе.')).toBe(true);
      expect(replies.map((r) => r.usage)).toEqual([
        { input: 1800, output: 653 },
        { input: 1900, output: 2400 },
      ]);
      const edits = [...store.values()].flatMap((log) =>
        dataOf(log, 'user/message')
          .filter((m) => m.author === 'system' && String(m.content).startsWith('Applied edit to '))
          .map((m) => m.content),
      );
      expect(edits).toEqual([
        'Applied edit to packages\\module\\es\\src\\CONVENTIONS.md',
        'Applied edit to CONVENTIONS.md',
        'Applied edit to CONVENTIONS.md',
        'Applied edit to CONVENTIONS.md',
      ]);
    });
  },
);

describe('aider: bad input is a report, never a crash', () => {
  it('a cut history, stray lines, an unreadable start, a file that is not aider', async () => {
    copyInto(path.join(FIXTURES, 'damaged'), ws.source);
    const summary = await aider();
    expect(summary).toMatchObject({ failed: 0, imported: 3 });
    expect(summary.reports.map((r) => [path.relative(ws.source, r.file), r.line, r.kind])).toEqual([
      [path.join('not-aider', 'notes.chat.history.md'), null, 'skipped-file'],
      [path.join('stray', HISTORY), 1, 'skipped-record'],
      [path.join('stray', HISTORY), 13, 'skipped-record'],
    ]);
    const cut = (await readStore(ws.data)).get(idOf(path.join('cut', HISTORY), 0))!;
    // The reply cut mid-write is not read; its prompt's turn stays open.
    expect(dataOf(cut, 'assistant/message')).toEqual([
      { content: 'A complete reply.', usage: { input: 100, output: 5 } },
    ]);
    expect(cut.events.at(-1)).toMatchObject({ type: 'user/message', data: { content: 'second' } });
  });

  it('an empty history and a binary file named like one are skipped files', async () => {
    mkdirSync(path.join(ws.source, 'a'));
    writeFileSync(path.join(ws.source, 'a', HISTORY), '');
    writeFileSync(path.join(ws.source, HISTORY), Buffer.from([0, 159, 146, 150, 10, 255, 10]));
    const summary = await aider();
    expect(summary).toMatchObject({ failed: 0, imported: 0 });
    expect(summary.reports.map((r) => r.kind)).toEqual(['skipped-file', 'skipped-file']);
    expect(readFileSync(path.join(ws.source, HISTORY)).length).toBe(7);
  });
});

describe('aider has no default folder', () => {
  it('defaultSourceDir and a bare --watch aider refuse with IMPORT_SOURCE_REQUIRED; a named folder is taken', () => {
    const code = (f: () => unknown): string | undefined => {
      try {
        f();
        return undefined;
      } catch (error) {
        return isImportError(error) ? error.code : 'other';
      }
    };
    expect(code(() => defaultSourceDir('aider', '/home/dev'))).toBe('IMPORT_SOURCE_REQUIRED');
    expect(code(() => parseWatchSpec('aider', '/home/dev'))).toBe('IMPORT_SOURCE_REQUIRED');
    expect(parseWatchSpec('aider:/work/projects', '/home/dev')).toEqual({
      harness: 'aider',
      dir: path.resolve('/work/projects'),
    });
  });
});
