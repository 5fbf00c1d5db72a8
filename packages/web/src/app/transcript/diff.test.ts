import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { editView, lineDiff, patchLines } from './diff.js';

const render = (lines: readonly { kind: string; text: string }[]): string[] =>
  lines.map((line) => `${line.kind === 'add' ? '+' : line.kind === 'del' ? '-' : ' '}${line.text}`);

describe('lineDiff', () => {
  it('keeps shared lines and marks the changed ones', () => {
    expect(render(lineDiff('a\nb\nc\nd', 'a\nB\nc\nd\ne'))).toEqual([' a', '-b', '+B', ' c', ' d', '+e']);
  });
  it('its kept and deleted lines are the old text, its kept and added lines the new (property)', () => {
    const text = fc
      .array(fc.constantFrom('a', 'b', 'c', '', 'dd'), { maxLength: 30 })
      .map((l) => l.join('\n'));
    fc.assert(
      fc.property(text, text, (before, after) => {
        const lines = lineDiff(before, after);
        const side = (skip: string): string =>
          lines
            .filter((line) => line.kind !== skip)
            .map((line) => line.text)
            .join('\n');
        expect(side('add')).toBe(before);
        expect(side('del')).toBe(after);
      }),
    );
  });

  it('past the size bound, deletes everything old and adds everything new', () => {
    const before = Array.from({ length: 2_500 }, (_, i) => `old ${i}`).join('\n');
    const after = Array.from({ length: 2_500 }, (_, i) => `new ${i}`).join('\n');
    const lines = lineDiff(before, after);
    expect(lines.slice(0, 2_500).every((line) => line.kind === 'del')).toBe(true);
    expect(lines.slice(2_500).every((line) => line.kind === 'add')).toBe(true);
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
