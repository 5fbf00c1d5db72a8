import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { projectNameOf } from './project-name.js';

describe('projectNameOf', () => {
  it('is the last folder name, trailing separators dropped, either separator splitting', () => {
    expect(projectNameOf('/home/dev/strand')).toBe('strand');
    expect(projectNameOf('/home/dev/strand//')).toBe('strand');
    expect(projectNameOf('C:\\src\\web\\')).toBe('web');
    expect(projectNameOf('strand')).toBe('strand');
    expect(projectNameOf('/')).toBe('');
    expect(projectNameOf(undefined)).toBeNull();
  });

  it('names the folder a path ends in, whatever precedes it or trails it (property)', () => {
    const segment = fc.stringMatching(/^[^/\\]{1,8}$/);
    const separators = fc.array(fc.constantFrom('/', '\\'), { maxLength: 3 });
    fc.assert(
      fc.property(
        fc.array(segment, { maxLength: 4 }),
        fc.constantFrom('/', '\\'),
        segment,
        separators,
        (parents, sep, last, trailing) => {
          const cwd = [...parents, last].join(sep) + trailing.join('');
          expect(projectNameOf(cwd)).toBe(last);
        },
      ),
    );
  });
});
