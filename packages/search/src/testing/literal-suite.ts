import { describe, expect, it } from 'vitest';
import { isSearchIndexError } from '../errors.js';
import { HIGHLIGHT_END, HIGHLIGHT_START, SNIPPET_MAX_CHARS } from '../snippet.js';
import type { SearchPage } from '../types.js';
import { assistant, persistedSession, user } from './corpus.js';
import { withTestIndex, type OpenSearchIndex } from './harness.js';

const ids = (page: SearchPage): string[] => page.results.map((r) => r.sessionId);

/**
 * What a literal query matches, how results are grouped and ranked, and the snippet contract —
 * the same on every engine (README: "Queries, ranking, snippets").
 */
export function searchLiteralSuite(engine: string, openIndex: OpenSearchIndex): void {
  describe(`search index (${engine}): literal queries, ranking, snippets`, () => {
    const fixture = withTestIndex(openIndex);

    /** The seqs of the hits of a query, over every result. */
    const seqOf = async (query: string): Promise<number[]> =>
      (await fixture.index.search(query)).results.flatMap((r) => r.hits.map((h) => h.seq));

    async function corpusOf(sessions: Record<string, string[]>): Promise<void> {
      for (const [id, texts] of Object.entries(sessions))
        await persistedSession(fixture.corpus.persistence, id, texts.map(user));
      await fixture.index.sync(fixture.corpus.sources);
    }

    describe('literal text', () => {
      it('finds text of user, assistant, tool call and tool result events, at their seq', async () => {
        await persistedSession(fixture.corpus.persistence, 'kinds', [
          { type: 'turn/start', data: {} },
          user('please refactor the walrus module'),
          { type: 'step/start', data: {} },
          {
            type: 'assistant/message',
            data: {
              content: [{ type: 'text', text: 'looking at the narwhal code' }],
              toolCalls: [{ id: 'c1', name: 'read', arguments: '{"path":"src/ocelot.ts"}' }],
            },
          },
          { type: 'tool/call', data: { callId: 'c1', name: 'read', arguments: '{"path":"src/ocelot.ts"}' } },
          {
            type: 'tool/result',
            data: { callId: 'c1', content: [{ type: 'text', text: 'export const pangolin = 1;' }] },
          },
          { type: 'step/end', data: {} },
          { type: 'session/title', data: { title: 'capybara title is not message text' } },
          { type: 'turn/end', data: { reason: 'completed' } },
        ]);
        await fixture.index.sync(fixture.corpus.sources);
        expect(await seqOf('walrus')).toEqual([1]);
        expect(await seqOf('narwhal')).toEqual([3]);
        expect(await seqOf('ocelot')).toEqual([4]); // the call's arguments; the assistant's toolCalls copy is not indexed
        expect(await seqOf('pangolin')).toEqual([5]);
        expect(await seqOf('capybara')).toEqual([]);
      });

      it('finds a command by its name and args, and its output without terminal escapes', async () => {
        await persistedSession(fixture.corpus.persistence, 'commands', [
          { type: 'turn/start', data: {} },
          { type: 'session/command', data: { name: 'compact', args: 'keep the gazelle notes' } },
          {
            type: 'session/command-output',
            data: { text: '\u001b[2mCompacted\u001b[22m the \u001b[1;32mbison\u001b[0m', stream: 'stdout' },
          },
          { type: 'turn/end', data: { reason: 'completed' } },
        ]);
        await fixture.index.sync(fixture.corpus.sources);
        expect(await seqOf('compact')).toEqual([1]);
        expect(await seqOf('/compact')).toEqual([1]);
        expect(await seqOf('gazelle')).toEqual([1]);
        expect(await seqOf('compacted bison')).toEqual([2]);
        const [hit] = (await fixture.index.search('bison')).results.flatMap((r) => r.hits);
        expect(hit!.snippet).not.toContain('\u001b');
      });

      it('matches case- and diacritic-insensitively, every term in one event', async () => {
        await corpusOf({ a: ['Crème Brûlée recipe'], b: ['creme', 'brulee'] });
        expect(ids(await fixture.index.search('CREME brulee'))).toEqual(['a']);
        expect(ids(await fixture.index.search('BRÛLÉE')).sort()).toEqual(['a', 'b']);
      });

      it('treats query operators, quotes, prefixes, NEAR, minus and column filters as data', async () => {
        await corpusOf({
          or: ['lemon or melon'],
          lemon: ['lemon only'],
          melon: ['melon only'],
          prefix: ['foobar baz'],
          exact: ['foo baz'],
          near: ['near apple and banana'],
          apart: ['apple pie banana'],
          minus: ['kiwi grape'],
          kiwi: ['kiwi alone'],
          column: ['the text papaya example'],
          papaya: ['papaya smoothie'],
          bang: ['mango & lime | !guava'],
        });
        expect(ids(await fixture.index.search('"lemon" OR melon'))).toEqual(['or']);
        expect(ids(await fixture.index.search('foo*'))).toEqual(['exact']);
        expect(ids(await fixture.index.search('NEAR(apple banana)'))).toEqual(['near']);
        expect(ids(await fixture.index.search('kiwi -grape'))).toEqual(['minus']);
        expect(ids(await fixture.index.search('text:papaya'))).toEqual(['column']);
        // tsquery operators (PostgreSQL) are data too.
        expect(ids(await fixture.index.search('mango & !guava'))).toEqual(['bang']);
        expect(ids(await fixture.index.search('lemon <-> melon'))).toEqual(['or']);
        for (const odd of [
          '"unbalanced',
          '(',
          ')',
          '*',
          'AND',
          'NOT',
          'a"b',
          '^start',
          '+',
          '{text}: x',
          'NEAR(',
          "'",
          "o'clock",
          '!',
          '&',
          '|',
          '<->',
          '<2>',
          'a:*',
          '\\',
        ]) {
          await expect(fixture.index.search(odd)).resolves.toBeDefined();
        }
        // Quotes only delimit phrases: a query of nothing but quotes has no term, like an empty one.
        await expect(fixture.index.search('"""')).rejects.toMatchObject({ code: 'SEARCH_INVALID_QUERY' });
      });

      it('refuses an empty or whitespace-only query, an oversized one and a bad limit', async () => {
        for (const query of ['', '   ', '\n\t ']) {
          await expect(fixture.index.search(query)).rejects.toSatisfy((e) =>
            isSearchIndexError(e, 'SEARCH_INVALID_QUERY'),
          );
        }
        await expect(fixture.index.search('x'.repeat(1_001))).rejects.toSatisfy((e) =>
          isSearchIndexError(e, 'SEARCH_INVALID_QUERY'),
        );
        await expect(fixture.index.search('ok', { limit: 0 })).rejects.toSatisfy((e) =>
          isSearchIndexError(e, 'SEARCH_INVALID_QUERY'),
        );
        await expect(fixture.index.search('ok', { limit: 101 })).rejects.toSatisfy((e) =>
          isSearchIndexError(e, 'SEARCH_INVALID_QUERY'),
        );
        await expect(fixture.index.search('ok', { cursor: 'not-a-cursor!' })).rejects.toSatisfy((e) =>
          isSearchIndexError(e, 'SEARCH_INVALID_QUERY'),
        );
      });

      it('refuses a query containing NUL as invalid, never as a storage error', async () => {
        for (const query of ['a\u0000b', '\u0000', 'ok \u0000']) {
          await expect(fixture.index.search(query)).rejects.toSatisfy((e) =>
            isSearchIndexError(e, 'SEARCH_INVALID_QUERY'),
          );
        }
      });
    });

    describe('ranking, grouping, snippets', () => {
      it('ranks a session with more matches higher', async () => {
        await corpusOf({
          once: ['the heron flew', 'nothing here', 'more filler text'],
          thrice: ['heron heron heron by the lake'],
          events: ['a heron', 'another heron', 'the heron again'],
          none: ['no birds at all'],
        });
        const page = await fixture.index.search('heron');
        expect(ids(page).slice(-1)).toEqual(['once']);
        expect(ids(page)).toHaveLength(3);
        const scores = page.results.map((r) => r.score);
        expect([...scores].sort((a, b) => b - a)).toEqual(scores);
      });

      it('groups hits per session: one result per session with its best three hits', async () => {
        await corpusOf({
          many: Array.from({ length: 10 }, (_, i) => `osprey sighting number ${i}`),
          one: ['an osprey'],
        });
        const page = await fixture.index.search('osprey');
        expect(ids(page).sort()).toEqual(['many', 'one']);
        const many = page.results.find((r) => r.sessionId === 'many')!;
        expect(many.hits).toHaveLength(3);
        expect(new Set(many.hits.map((h) => h.seq)).size).toBe(3);
      });

      it('matches a term the tokenizer splits as a phrase, in order and adjacent', async () => {
        await corpusOf({
          phrase: ['call foo-bar now'],
          reversed: ['bar foo'],
          apart: ['foo and bar'],
        });
        expect(ids(await fixture.index.search('foo-bar'))).toEqual(['phrase']);
        expect(ids(await fixture.index.search('foo.bar'))).toEqual(['phrase']);
        const [hit] = (await fixture.index.search('foo-bar')).results[0]!.hits;
        expect(hit!.snippet).toContain(`${HIGHLIGHT_START}foo-bar${HIGHLIGHT_END}`);
      });

      it('matches "quoted words" as a phrase and every other word anywhere in the event', async () => {
        await corpusOf({
          phrase: ['please fix the flaky test today'],
          apart: ['the test is flaky, fix it today'],
          partial: ['fix the flaky build'],
        });
        expect(ids(await fixture.index.search('"flaky test"'))).toEqual(['phrase']);
        expect(ids(await fixture.index.search('today "fix the flaky"'))).toEqual(['phrase']);
        expect(ids(await fixture.index.search('flaky test')).sort()).toEqual(['apart', 'phrase']);
        expect(ids(await fixture.index.search('"fix the flaky'))).toEqual(
          expect.arrayContaining(['phrase', 'partial']),
        );
        expect((await fixture.index.search('"test flaky"')).results).toEqual([]);
        const [hit] = (await fixture.index.search('"flaky test"')).results[0]!.hits;
        expect(hit!.snippet).toContain(`${HIGHLIGHT_START}flaky test${HIGHLIGHT_END}`);
      });

      it('bounds snippets and marks the matched terms with U+0002 … U+0003', async () => {
        const filler = (n: number): string => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');
        await corpusOf({
          long: [`${filler(800)} the albatross landed ${filler(800)}`],
          token: [`${'z'.repeat(600)} albatross`],
          giant: [`${'albatross'.repeat(40)}`],
        });
        const page = await fixture.index.search('albatross');
        expect(page.results).toHaveLength(2); // a 360-letter token is one token, not "albatross"
        for (const hit of page.results.flatMap((r) => r.hits)) {
          expect(hit.snippet.length).toBeLessThanOrEqual(SNIPPET_MAX_CHARS);
          expect(hit.snippet).toContain(`${HIGHLIGHT_START}albatross${HIGHLIGHT_END}`);
          expect(hit.snippet.split(HIGHLIGHT_START).length).toBe(hit.snippet.split(HIGHLIGHT_END).length);
        }
      });

      it('never lets indexed text forge a highlight marker', async () => {
        await corpusOf({ forged: [`\u0002fake\u0003 puffin`] });
        const [hit] = (await fixture.index.search('puffin')).results[0]!.hits;
        expect(hit!.snippet).toBe(`\uFFFDfake\uFFFD ${HIGHLIGHT_START}puffin${HIGHLIGHT_END}`);
      });

      it('indexes assistant text through an injected extractor only', async () => {
        const own = (
          await fixture.open({
            extractor: (e) => (e.type === 'assistant/message' ? 'custom flamingo' : undefined),
          })
        ).index;
        await persistedSession(fixture.corpus.persistence, 'x', [
          user('plain pelican'),
          assistant('whatever'),
        ]);
        await own.sync(fixture.corpus.sources);
        expect(ids(await own.search('pelican'))).toEqual([]);
        expect((await own.search('flamingo')).results[0]!.hits.map((h) => h.seq)).toEqual([1]);
      });
    });
  });
}
