import { describe, expect, it } from 'vitest';
import { snippetParts, activeMs, formatRelative } from './format.js';
import { rpcUrlFrom } from './strand.js';

describe('snippetParts', () => {
  it('splits the host highlight markers into marked parts', () => {
    expect(snippetParts('a \u0002quokka\u0003 and \u0002plan\u0003.')).toEqual([
      { text: 'a ', highlighted: false },
      { text: 'quokka', highlighted: true },
      { text: ' and ', highlighted: false },
      { text: 'plan', highlighted: true },
      { text: '.', highlighted: false },
    ]);
  });
  it('keeps a snippet without markers whole and closes an unterminated mark at the end', () => {
    expect(snippetParts('plain')).toEqual([{ text: 'plain', highlighted: false }]);
    expect(snippetParts('x \u0002cut')).toEqual([
      { text: 'x ', highlighted: false },
      { text: 'cut', highlighted: true },
    ]);
  });
});

describe('rpcUrlFrom', () => {
  it('derives ws(s)://host/rpc from the page and carries the token over', () => {
    expect(rpcUrlFrom({ protocol: 'http:', host: '127.0.0.1:4400', search: '' })).toEqual({
      url: 'ws://127.0.0.1:4400/rpc',
    });
    expect(rpcUrlFrom({ protocol: 'https:', host: 'strand.example', search: '?token=abc' })).toEqual({
      url: 'wss://strand.example/rpc',
      token: 'abc',
    });
  });
});

describe('activeMs', () => {
  it('adds the open turn up to now while running, and up to its last event otherwise', () => {
    const timing = { settledMs: 5_000, active: { since: 10_000, through: 12_000 } };
    expect(activeMs(timing)).toBe(7_000);
    expect(activeMs(timing, 15_000)).toBe(10_000);
    expect(activeMs({ settledMs: 5_000, active: null }, 15_000)).toBe(5_000);
  });
});

describe('formatRelative', () => {
  const now = Date.UTC(2026, 11, 1, 12, 0, 0);
  const min = 60_000;
  it('says how long ago in the largest whole unit, against the given now', () => {
    expect(formatRelative(now, now)).toBe('just now');
    expect(formatRelative(now - 59_999, now)).toBe('just now');
    expect(formatRelative(now - min, now)).toBe('1 min ago');
    expect(formatRelative(now - 3 * min - 5_000, now)).toBe('3 min ago');
    expect(formatRelative(now - 60 * min, now)).toBe('1 h ago');
    expect(formatRelative(now - (2 * 60 + 59) * min, now)).toBe('2 h ago');
    expect(formatRelative(now - 24 * 60 * min, now)).toBe('1 d ago');
    expect(formatRelative(now - 45 * 24 * 60 * min, now)).toBe('1 mo ago');
    expect(formatRelative(now - 800 * 24 * 60 * min, now)).toBe('2 y ago');
  });
  it('moves on as now ticks, and a moment ahead of now is "just now", never negative', () => {
    const at = now - 30_000;
    expect(formatRelative(at, now)).toBe('just now');
    expect(formatRelative(at, now + 30_000)).toBe('1 min ago');
    expect(formatRelative(at, now + 30 * min)).toBe('30 min ago');
    expect(formatRelative(now + 5 * min, now)).toBe('just now');
  });
});
