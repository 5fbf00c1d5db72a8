import { describe, expect, it } from 'vitest';
import type { SearchResult } from '@strand/protocol';
import type { SearchPort } from '../ports.js';
import { sharedSearch } from './shared-reads.js';

/**
 * An index of sessions filed under a project name and a harness, narrowing as the real one does
 * (inside its query, over two pages): a filter the shared search dropped would widen the answer.
 */
function indexOf(sessions: { id: string; projectName: string; harness: string }[]): SearchPort {
  return {
    search: (_query, options) => {
      const matching = sessions
        .filter((s) => options.projectName === undefined || s.projectName === options.projectName)
        .filter((s) => options.harness === undefined || s.harness === options.harness)
        .map((s): SearchResult => ({ sessionId: s.id, title: null, hits: [{ seq: 0, snippet: 'hit' }] }));
      const first = options.cursor === undefined;
      const page = first ? matching.slice(0, 2) : matching.slice(2);
      return Promise.resolve({
        results: page,
        ...(first && matching.length > 2 ? { nextCursor: 'p2' } : {}),
      });
    },
  };
}

describe('sharedSearch', () => {
  it('passes the project name and harness filters to the index, and keeps only granted sessions', async () => {
    const index = indexOf([
      { id: 'a1', projectName: 'strand', harness: 'strand' },
      { id: 'b1', projectName: 'web', harness: 'strand' },
      { id: 'a2', projectName: 'strand', harness: 'codex' },
      { id: 'a3', projectName: 'strand', harness: 'strand' },
      { id: 'a4', projectName: 'strand', harness: 'strand' },
    ]);
    const granted = new Set(['a1', 'a2', 'a4', 'b1']);
    const covers = (id: string) => Promise.resolve(granted.has(id));
    const ids = async (options: Parameters<typeof sharedSearch>[3]) =>
      (await sharedSearch(index, covers, 'hit', options, new AbortController().signal)).results.map(
        (r) => r.sessionId,
      );
    expect(await ids({ projectName: 'strand' })).toEqual(['a1', 'a2', 'a4']);
    expect(await ids({ projectName: 'strand', harness: 'strand' })).toEqual(['a1', 'a4']);
    expect(await ids({ projectName: 'web' })).toEqual(['b1']);
  });
});
