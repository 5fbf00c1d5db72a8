import { describe, expect, it } from 'vitest';
import { snippetParts, activeMs } from './format.js';
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
