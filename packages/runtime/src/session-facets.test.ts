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

  it("gives a subagent's parent and origin and a fork's parent, to describe results", () => {
    const child = newSessionHeader({
      id: SessionId('child'),
      createdAt: 1,
      cwd: '/work/a',
      parentSession: SessionId('parent'),
      origin: 'subagent',
    });
    expect(sessionFacets(child)).toEqual({
      cwd: '/work/a',
      harness: 'strand',
      parentSession: 'parent',
      origin: 'subagent',
    });
    const fork = {
      ...newSessionHeader({ id: SessionId('fork'), createdAt: 1 }),
      forkedFrom: SessionId('parent'),
    };
    expect(sessionFacets(fork)).toEqual({ harness: 'strand', forkedFrom: 'parent' });
  });
});
