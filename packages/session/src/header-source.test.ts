import { describe, expect, it } from 'vitest';
import { SessionError } from './errors.js';
import { assertWritableSession, isReadOnlySession, newSessionHeader, parseSessionHeader } from './header.js';
import { SessionId } from './ids.js';

const base = { version: 1, id: 'claude-x', createdAt: 5, isSeeded: false };

describe('header source', () => {
  it('keeps a valid source, frozen, and leaves Strand sessions without one', () => {
    const header = parseSessionHeader({ ...base, source: { harness: 'codex', sourceId: '0199-abc' } });
    expect(header.source).toEqual({ harness: 'codex', sourceId: '0199-abc' });
    expect(Object.isFrozen(header.source)).toBe(true);
    expect(isReadOnlySession(header)).toBe(true);
    const own = newSessionHeader({ id: SessionId('mine'), createdAt: 1 });
    expect(own.source).toBeUndefined();
    expect(isReadOnlySession(own)).toBe(false);
  });

  it.each([
    ['not an object', 'claude-code'],
    ['an unknown harness', { harness: 'no-such-harness', sourceId: 'x' }],
    ['an empty sourceId', { harness: 'gemini', sourceId: '' }],
    ['a non-string sourceId', { harness: 'gemini', sourceId: 7 }],
    ['an overlong sourceId', { harness: 'gemini', sourceId: 'x'.repeat(257) }],
    ['an unknown key', { harness: 'gemini', sourceId: 'x', extra: true }],
  ])('refuses %s with SESSION_HEADER_INVALID', (_why, source) => {
    expect(() => parseSessionHeader({ ...base, source })).toThrow(
      expect.objectContaining({ code: 'SESSION_HEADER_INVALID' }) as Error,
    );
  });

  it('assertWritableSession refuses a sourced session with SESSION_READ_ONLY naming the harness', () => {
    const header = newSessionHeader({
      id: SessionId('gemini-s'),
      createdAt: 1,
      source: { harness: 'gemini', sourceId: 's' },
    });
    let caught: unknown;
    try {
      assertWritableSession(header);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SessionError);
    expect((caught as SessionError).toJSON()).toMatchObject({
      code: 'SESSION_READ_ONLY',
      details: { sessionId: 'gemini-s', harness: 'gemini' },
    });
    expect(() =>
      assertWritableSession(newSessionHeader({ id: SessionId('own'), createdAt: 1 })),
    ).not.toThrow();
  });
});
