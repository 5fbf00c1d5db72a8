import { describe, expect, it } from 'vitest';
import { editView, lineDiff, patchLines } from './diff.js';

const render = (lines: readonly { kind: string; text: string }[]): string[] =>
  lines.map((line) => `${line.kind === 'add' ? '+' : line.kind === 'del' ? '-' : ' '}${line.text}`);

describe('lineDiff', () => {
  it('keeps shared lines and marks the changed ones', () => {
    expect(render(lineDiff('a\nb\nc\nd', 'a\nB\nc\nd\ne'))).toEqual([' a', '-b', '+B', ' c', ' d', '+e']);
  });
  it('diffs from and to empty text', () => {
    expect(render(lineDiff('', 'x\ny'))).toEqual(['+x', '+y']);
    expect(render(lineDiff('x', ''))).toEqual(['-x']);
  });
});

describe('editView', () => {
  it('reads old/new pairs, patches and whole-file writes', () => {
    expect(render(editView('edit', { file_path: 'f', old_str: 'a', new_str: 'b' })!.lines)).toEqual([
      '-a',
      '+b',
    ]);
    expect(editView('apply_patch', { input: '--- a\n+++ b\n-x\n+y' })!.lines.map((l) => l.kind)).toEqual([
      'same',
      'same',
      'del',
      'add',
    ]);
    expect(editView('write_file', { path: 'p', content: 'one' })).toEqual({
      path: 'p',
      lines: [{ kind: 'add', text: 'one' }],
    });
  });
  it('is undefined for a call that edits nothing', () => {
    expect(editView('bash', { command: 'ls' })).toBeUndefined();
    expect(editView('write_file', 'not an object')).toBeUndefined();
  });
  it('classifies patch lines', () => {
    expect(render(patchLines(' k\n-d\n+a'))).toEqual([' k', '-d', '+a']);
  });
});
