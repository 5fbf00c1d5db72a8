import { describe, expect, it } from 'vitest';
import { newSessionHeader, parseSessionHeader } from './header.js';
import { SessionId } from './ids.js';

const base = { version: 1, id: 'claude-x', createdAt: 5, isSeeded: false };

describe('parseSessionHeader', () => {
  it('returns a header it returned before as itself, frozen with its source', () => {
    const header = newSessionHeader({
      id: SessionId('imported-1'),
      createdAt: 7,
      source: { harness: 'aider', sourceId: 'k#0' },
    });
    expect(parseSessionHeader(header)).toBe(header);
    expect(Object.isFrozen(header)).toBe(true);
    expect(Object.isFrozen(header.source)).toBe(true);
    expect(() => {
      (header as { cwd?: string }).cwd = '/elsewhere';
    }).toThrow(TypeError);
  });

  it('checks a copy of a checked header again: a changed field is refused', () => {
    const header = parseSessionHeader(base);
    expect(() => parseSessionHeader({ ...header, createdAt: 1.5 })).toThrow(/createdAt/);
    expect(() => parseSessionHeader({ ...header, extra: 1 })).toThrow(/extra/);
    expect(() =>
      parseSessionHeader({ ...header, source: { ...header.source, harness: 'strand', sourceId: 'x' } }),
    ).toThrow(/source/);
    expect(parseSessionHeader({ ...header })).not.toBe(header);
  });
});
