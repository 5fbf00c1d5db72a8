import { describe, expect, it } from 'vitest';
import { defaultRoute, invokesContinue, readOnlyAdvice } from './continue-fork.js';

describe('the continue-in-a-fork command', () => {
  it('is invoked by its slash name as the first word only', () => {
    expect(invokesContinue('/continue-in-strand-fork')).toBe(true);
    expect(invokesContinue('  /continue-in-strand-fork now please')).toBe(true);
    expect(invokesContinue('/continue-in-strand-forks')).toBe(false);
    expect(invokesContinue('please /continue-in-strand-fork')).toBe(false);
    expect(invokesContinue('continue-in-strand-fork')).toBe(false);
  });

  it('continues on the route the host marks as default, else the first, and refuses an empty catalog', () => {
    const a = { provider: 'strand', model: 'scripted', label: 'Scripted' };
    const b = { provider: 'local', model: 'tiny', label: 'Tiny', isDefault: true };
    expect(defaultRoute([a, b])).toBe(b);
    expect(defaultRoute([a])).toBe(a);
    expect(() => defaultRoute([])).toThrow(/no model/);
  });

  it('the refusal names the command, or the fork once one was made', () => {
    expect(readOnlyAdvice('s1', 'codex', undefined)).toBe(
      'session s1 is read-only: it was imported from codex, which owns it; run /continue-in-strand-fork to continue it in a Strand fork',
    );
    expect(readOnlyAdvice('s1', 'codex', 'f1')).toContain('its Strand fork f1');
    // Whether or not a fork was made, the command is named (what an editor can run from here).
    expect(readOnlyAdvice('s1', 'codex', 'f1')).toContain('/continue-in-strand-fork');
  });
});
