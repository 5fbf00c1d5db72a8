import { afterEach, describe, expect, it } from 'vitest';
import { defaultSourceDir } from '../harnesses.js';
import { harnessHome } from './harness-home.js';

/** The default folders follow each harness's own override, as `strand export --to` does. */
const NAMES = ['CLAUDE_CONFIG_DIR', 'CODEX_HOME', 'GEMINI_CLI_HOME'] as const;
const saved = Object.fromEntries(NAMES.map((name) => [name, process.env[name]]));
afterEach(() => {
  for (const name of NAMES)
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
});

describe('default folders', () => {
  it('are under the home without an override, and under the override when one is set', () => {
    for (const name of NAMES) delete process.env[name];
    expect(defaultSourceDir('claude-code', '/home/ana')).toBe('/home/ana/.claude/projects');
    expect(defaultSourceDir('codex', '/home/ana')).toBe('/home/ana/.codex/sessions');
    expect(defaultSourceDir('gemini', '/home/ana')).toBe('/home/ana/.gemini/tmp');
    process.env.CLAUDE_CONFIG_DIR = '/cfg/claude';
    process.env.CODEX_HOME = '/cfg/codex';
    process.env.GEMINI_CLI_HOME = '/cfg/gemini-home';
    expect(defaultSourceDir('claude-code', '/home/ana')).toBe('/cfg/claude/projects');
    expect(defaultSourceDir('codex', '/home/ana')).toBe('/cfg/codex/sessions');
    expect(defaultSourceDir('gemini', '/home/ana')).toBe('/cfg/gemini-home/.gemini/tmp');
    process.env.CODEX_HOME = '';
    expect(defaultSourceDir('codex', '/home/ana')).toBe('/home/ana/.codex/sessions');
  });
});

describe('harnessHome', () => {
  const env = {
    HOME: '/home/ana',
    CLAUDE_CONFIG_DIR: '/cfg/claude',
    CODEX_HOME: '/cfg/codex',
    GEMINI_CLI_HOME: '/cfg/g',
  };
  it('puts the folder under an explicit home, whatever the variables say (`--home`)', () => {
    expect(harnessHome('claude-code', { home: '/tmp/h', env })).toBe('/tmp/h/.claude');
    expect(harnessHome('codex', { home: '/tmp/h', env })).toBe('/tmp/h/.codex');
    expect(harnessHome('gemini', { home: '/tmp/h', env })).toBe('/tmp/h/.gemini');
  });
  it('follows each variable as its harness reads it: the folder itself, or the home holding it', () => {
    expect(harnessHome('claude-code', { env })).toBe('/cfg/claude');
    expect(harnessHome('codex', { env })).toBe('/cfg/codex');
    expect(harnessHome('gemini', { env })).toBe('/cfg/g/.gemini');
    expect(harnessHome('codex', { env: { HOME: '/home/ana', CODEX_HOME: '' } })).toBe('/home/ana/.codex');
  });
});
