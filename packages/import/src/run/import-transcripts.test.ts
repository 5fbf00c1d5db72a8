import fc from 'fast-check';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isInside } from './import-transcripts.js';

/** Names as a folder holds them: never `.` or `..` (resolved paths have none), case and dots mixed. */
const name = fc.stringMatching(/^[aAb.]{1,3}$/).filter((n) => n !== '.' && n !== '..');
const absolute = (names: readonly string[]): string => path.sep + names.join(path.sep);

describe('isInside (the data folder kept out of its own source folder)', () => {
  it.runIf(path.sep === '/')(
    'holds exactly when the folder’s names begin the file’s and the file has more, names compared exactly',
    () => {
      fc.assert(
        fc.property(
          fc.array(name, { maxLength: 4 }),
          fc.array(name, { maxLength: 4 }),
          fc.array(name, { maxLength: 3 }),
          fc.constantFrom('random', 'under a prefix of the folder', 'beside the folder, its name extended'),
          (dirNames, shared, below, how) => {
            const fileNames =
              how === 'random'
                ? [...shared, ...below]
                : how === 'under a prefix of the folder'
                  ? [...dirNames.slice(0, shared.length), ...below]
                  : [...dirNames.slice(0, -1), `${dirNames.at(-1) ?? ''}${shared[0] ?? 'b'}`, ...below];
            const dir = absolute(dirNames);
            const file = absolute(fileNames);
            const model = fileNames.length > dirNames.length && dirNames.every((n, i) => fileNames[i] === n);
            expect(isInside(file, dir)).toBe(model);
            // A trailing separator on the folder means the same folder.
            if (dirNames.length > 0) expect(isInside(file, dir + path.sep)).toBe(model);
          },
        ),
      );
    },
  );

  it.runIf(path.sep === '/')('a sibling whose name begins with the folder’s is not inside it', () => {
    expect(isInside('/home/u/strand-old/rollout.jsonl', '/home/u/strand')).toBe(false);
    expect(isInside('/home/u/strand/..x/rollout.jsonl', '/home/u/strand')).toBe(true);
    expect(isInside('/home/u/strand', '/home/u/strand')).toBe(false);
  });
});
