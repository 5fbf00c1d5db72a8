import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SessionError } from './errors.js';
import { harnessLabel, sessionHarness, STRAND_HARNESS } from './harness-names.js';
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
    // What every harness filter and facet files each under: the importer's name, else Strand's.
    expect(sessionHarness(header)).toBe('codex');
    expect(sessionHarness(own)).toBe(STRAND_HARNESS);
  });

  it('reads a harness this build has never heard of (an open vocabulary: a newer importer wrote it)', () => {
    const header = parseSessionHeader({ ...base, source: { harness: 'opencode', sourceId: 'ses_1' } });
    expect(header.source).toEqual({ harness: 'opencode', sourceId: 'ses_1' });
    expect(harnessLabel('opencode')).toBe('opencode');
    expect(harnessLabel('claude-code')).toBe('Claude Code');
  });

  it('takes exactly the names of the harness-name shape', () => {
    const nameChar = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-'.split(''));
    fc.assert(
      fc.property(fc.string({ unit: nameChar, minLength: 1, maxLength: 42 }), (name) => {
        const shaped = name.length <= 40 && !name.startsWith('-') && !name.endsWith('-') && name !== 'strand';
        const read = () => parseSessionHeader({ ...base, source: { harness: name, sourceId: 'x' } });
        if (shaped) expect(read().source?.harness).toBe(name);
        else expect(read).toThrow(expect.objectContaining({ code: 'SESSION_HEADER_INVALID' }) as Error);
      }),
    );
  });

  it.each([
    ['not an object', 'claude-code'],
    ['a harness name with capitals', { harness: 'OpenCode', sourceId: 'x' }],
    ['a harness name that is a path', { harness: '../codex', sourceId: 'x' }],
    ['an empty harness name', { harness: '', sourceId: 'x' }],
    ['an overlong harness name', { harness: 'a'.repeat(41), sourceId: 'x' }],
    ['"strand", which names sessions without a source', { harness: 'strand', sourceId: 'x' }],
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
