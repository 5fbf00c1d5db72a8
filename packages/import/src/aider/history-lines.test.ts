import { describe, expect, it } from 'vitest';
import { classifyLine, modelLine, providerOf, replyText, sessionCost, tokensUsage } from './history-lines.js';

describe('aider history lines', () => {
  it('tells start, prompt, status, blank and reply lines apart, and whether aider marked them', () => {
    expect(classifyLine('# aider chat started at 2026-03-01 09:00:00')).toEqual({
      kind: 'start',
      time: new Date(2026, 2, 1, 9, 0, 0).getTime(),
      text: '# aider chat started at 2026-03-01 09:00:00',
    });
    expect(classifyLine('# Aider chat started at 2023-05-17 10:00:00')).toMatchObject({ kind: 'start' });
    expect(classifyLine('# aider chat started at yesterday')).toMatchObject({
      kind: 'start',
      time: undefined,
    });
    expect(classifyLine('#### fix the bug  ')).toEqual({ kind: 'prompt', text: 'fix the bug', marked: true });
    expect(classifyLine('#### Plan')).toEqual({ kind: 'prompt', text: 'Plan', marked: false });
    expect(classifyLine('####   ')).toEqual({ kind: 'prompt', text: '', marked: true });
    expect(classifyLine('> Applied edit to a.py  ')).toEqual({
      kind: 'status',
      text: 'Applied edit to a.py',
      marked: true,
    });
    expect(classifyLine('>  ')).toEqual({ kind: 'status', text: '', marked: true });
    expect(classifyLine('>quoted')).toEqual({ kind: 'text', text: '>quoted' });
    expect(classifyLine('   ')).toEqual({ kind: 'blank' });
    expect(classifyLine('##### five')).toEqual({ kind: 'text', text: '##### five' });
  });

  it("reads the session's running cost aider states after a reply, on the Tokens line or its own", () => {
    expect(sessionCost('Tokens: 9.7k sent, 85 received. Cost: $0.01 message, $0.03 session.')).toBe(0.03);
    expect(sessionCost('Cost: $0.02 message, $1,204.50 session.')).toBe(1204.5);
    expect(sessionCost('Tokens: 1,234 sent, 56 received. Cost: $0.000123 request, $0.05 session.')).toBe(
      0.05,
    );
    expect(sessionCost('Tokens: 12k sent, 1.2k cache write, 3.4k cache hit, 518 received.')).toBeUndefined();
    expect(sessionCost('Cost: lots')).toBeUndefined();
  });

  it('reads every Tokens line shape aider wrote: rounded, with cache counts, 0.46 separators', () => {
    expect(tokensUsage('Tokens: 9.7k sent, 85 received. Cost: $0.01 message, $0.01 session.')).toEqual({
      input: 9700,
      output: 85,
      cacheCreation: 0,
      cacheRead: 0,
      reasoning: 0,
    });
    expect(tokensUsage('Tokens: 12k sent, 1.2k cache write, 3.4k cache hit, 518 received.')).toMatchObject({
      input: 7400,
      cacheCreation: 1200,
      cacheRead: 3400,
      output: 518,
    });
    expect(tokensUsage('Tokens: 5.0k sent, 4.8k cache hit, 1.1k received.')).toMatchObject({
      input: 200,
      cacheRead: 4800,
      output: 1100,
    });
    expect(
      tokensUsage('Tokens: 1,234 sent, 56 received. Cost: $0.000123 request, $0.05 session.'),
    ).toMatchObject({
      input: 1234,
      output: 56,
    });
    // Aider writes the cache write before the cache hit; another order is not its line.
    expect(tokensUsage('Tokens: 1.0k sent, 1.0k cache hit, 40 cache write, 2 received.')).toBeUndefined();
    // Rounding can make the cache parts exceed what was sent: fresh input never goes below 0.
    expect(tokensUsage('Tokens: 1.0k sent, 40 cache write, 1.0k cache hit, 2 received.')).toMatchObject({
      input: 0,
    });
    expect(tokensUsage('Tokens: lots sent')).toBeUndefined();
  });

  it('reads the model of Main model, Model, Models and Editor model lines; the provider from the name', () => {
    expect(
      modelLine('Main model: gemini/gemini-2.5-pro with diff-fenced edit format, 32k think tokens'),
    ).toEqual({
      role: 'main',
      model: 'gemini/gemini-2.5-pro',
    });
    expect(modelLine('Model: ollama/gpt-oss:20b with whole edit format')).toEqual({
      role: 'main',
      model: 'ollama/gpt-oss:20b',
    });
    expect(modelLine('Models: gpt-4o with diff edit format, weak model gpt-4o-mini')).toEqual({
      role: 'main',
      model: 'gpt-4o',
    });
    expect(modelLine('Editor model: x/y with editor-diff edit format')).toEqual({
      role: 'editor',
      model: 'x/y',
    });
    expect(modelLine('Weak model: gpt-4o-mini')).toBeUndefined();
    expect(
      [
        'vertex_ai/claude-sonnet-4@20250514',
        'claude-3-5-sonnet-20241022',
        'o3-mini',
        'gemini-2.0-flash',
        'deepseek-chat',
        'qwen3',
      ].map(providerOf),
    ).toEqual(['vertex_ai', 'anthropic', 'openai', 'google', 'deepseek', 'unknown']);
  });

  it('leaves the reasoning aider keeps inside its tags out of the reply', () => {
    const tag = 'thinking-content-7bbeb8e1441453ad999a0bbba8a46d4b';
    expect(replyText(['', `<${tag}>`, 'think', `</${tag}>`, '', 'The answer.', ''])).toBe('The answer.');
    expect(replyText(['<think>kept: not aider’s tag</think>', 'x'])).toBe(
      '<think>kept: not aider’s tag</think>\nx',
    );
  });
});
