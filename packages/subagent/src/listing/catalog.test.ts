import type { CorpusRow } from '@strand/query';
import { Session, SessionId, SessionStore, newSessionHeader, type NewSessionHeader } from '@strand/session';
import { describe, expect, it } from 'vitest';
import { SubagentCatalog } from './catalog.js';

const row = (init: Omit<NewSessionHeader, 'id'> & { id: string }): CorpusRow => ({
  header: newSessionHeader({ ...init, id: SessionId(init.id) }),
  live: false,
  persisted: true,
  incarnation: `inc-${init.id}`,
  revision: 'r',
  storedBytes: 1,
});
const sub = (id: string, parent: string, createdAt = 0): CorpusRow =>
  row({ id, parentSession: SessionId(parent), origin: 'subagent', createdAt });
const P = SessionId('p');

describe('SubagentCatalog', () => {
  it('keeps only origin "subagent" sessions of the parent, ordered by createdAt then id in code-unit order', () => {
    const catalog = new SubagentCatalog(
      [
        sub('b', 'p', 5),
        sub('a', 'p', 5),
        sub('B', 'p', 5),
        sub('z', 'p', 1),
        sub('\u{1F600}', 'p', 5),
        sub('\uFF21', 'p', 5),
        row({ id: 'fork', parentSession: P, createdAt: 0 }),
        sub('x', 'q', 0),
      ],
      new SessionStore(),
    );
    // Code units: 'B' 0x42 < 'a' 0x61 < 'b' 0x62 < U+D83D (high surrogate of 😀) < U+FF21 — not code-point order.
    expect(catalog.childrenOf(P).map((c) => c.id)).toEqual(['z', 'B', 'a', 'b', '\u{1F600}', '\uFF21']);
  });

  it('prefers the live header and incarnation for an attached id, unchecked against the stored one', () => {
    const store = new SessionStore();
    const stored = sub('c', 'p', 9);
    store.attach(
      new Session({ header: { ...stored.header, createdAt: 1, cwd: '/live' }, incarnation: 'live-inc' }),
    );
    const [candidate] = new SubagentCatalog([stored, sub('d', 'p', 5)], store).childrenOf(P);
    expect(candidate).toMatchObject({
      id: 'c',
      header: { cwd: '/live', createdAt: 1 },
      incarnation: 'live-inc',
    });
    expect(candidate!.live).toBe(store.get(SessionId('c')));
  });

  it('answers hasChildren from headers alone, and never makes a session its own child', () => {
    const catalog = new SubagentCatalog(
      [sub('c', 'p'), sub('g', 'c'), sub('self', 'self')],
      new SessionStore(),
    );
    expect(catalog.hasChildren(SessionId('c'))).toBe(true);
    expect(catalog.hasChildren(SessionId('g'))).toBe(false);
    expect(catalog.childrenOf(SessionId('self'))).toEqual([]);
    expect(catalog.childrenOf(SessionId('unknown'))).toEqual([]);
  });
});
