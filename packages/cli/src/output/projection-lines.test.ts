import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectionText } from './projection-lines.js';

// Local dates are the machine's time zone; pin it for the expectations below.
let zone: string | undefined;
beforeEach(() => {
  zone = process.env.TZ;
  process.env.TZ = 'UTC';
});
afterEach(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

describe('projectionText', () => {
  it('tells unknown (?) from computed to nothing (—)', () => {
    expect(projectionText('title', undefined)).toBe('?');
    expect(projectionText('title', null)).toBe('—');
  });

  it('renders the built-in units as readable lines', () => {
    expect(projectionText('title', 'Refactor')).toBe('Refactor');
    expect(projectionText('listMetadata', { blank: false, lastPromptAt: 0 })).toBe(
      'last prompt 1970-01-01 00:00',
    );
    expect(
      projectionText('modelSelection', { provider: 'openai', model: 'gpt', reasoningEffort: 'low' }),
    ).toBe('openai/gpt (reasoning low)');
    const none = { input: 0, output: 0, cacheCreation: 0, cacheRead: 0, reasoning: 0 };
    const own = { ...none, input: 347482, output: 10954, cacheRead: 9_000_000 };
    expect(
      projectionText('usage', {
        own,
        inherited: none,
        byModel: [{ provider: 'anthropic', model: 'claude-opus-4', ...own }],
      }),
    ).toBe('347,482 in · 10,954 out · 9,000,000 cache read tokens by claude-opus-4');
    expect(
      projectionText('usage', { own: none, inherited: { ...none, input: 5, output: 1 }, byModel: [] }),
    ).toBe('0 in · 0 out tokens (before the fork: 5 in · 1 out)');
    // An older host's shape is shown as it is, never misread.
    expect(projectionText('usage', { input: 3, output: 4 })).toBe('input: 3, output: 4');
    expect(projectionText('subagentTiming', { settledMs: 60000, settledTurns: 3, active: null })).toBe(
      '3 settled turns (1m 0s)',
    );
    expect(
      projectionText('subagentTiming', {
        settledMs: 500,
        settledTurns: 1,
        active: { since: 0, through: 10 },
      }),
    ).toBe('1 settled turn (0.5s); running since 1970-01-01 00:00:00');
    expect(projectionText('subagent', { mode: 'continuable', label: 'researcher', seq: 0 })).toBe(
      'continuable "researcher" (descriptor at seq 0)',
    );
  });

  it('renders a value of an unexpected shape or an unknown unit generically, times as dates, never JSON braces', () => {
    expect(projectionText('usage', { tokens: 5 })).toBe('tokens: 5');
    expect(projectionText('pluginUnit', { startedAt: 0, note: 'x', gone: null })).toBe(
      'startedAt: 1970-01-01 00:00, note: x, gone: —',
    );
    expect(projectionText('pluginUnit', 42)).toBe('42');
  });
});
