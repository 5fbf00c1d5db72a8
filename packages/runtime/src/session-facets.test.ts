import { describe, expect, it } from 'vitest';
import { newSessionHeader, SessionId } from '@strand/session';
import { sessionFacets } from '@strand/stack';

// The composition root's facets for the search index (defined in `@strand/stack`, which has no test tier).
describe('sessionFacets', () => {
  it("files a session under its header's cwd and its source's harness, 'strand' without a source", () => {
    const own = newSessionHeader({ id: SessionId('own'), createdAt: 1, cwd: '/work/a' });
    expect(sessionFacets(own)).toEqual({ cwd: '/work/a', harness: 'strand' });
    const imported = newSessionHeader({
      id: SessionId('imported'),
      createdAt: 1,
      source: { harness: 'codex', sourceId: 'x' },
    });
    expect(sessionFacets(imported)).toEqual({ cwd: undefined, harness: 'codex' });
  });
});
