import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { discoverFiles } from './discover-files.js';
import { workspace, type Workspace } from '../testing/fixture-dirs.js';

let ws: Workspace;
let made = 0;
beforeEach(() => {
  ws = workspace();
  mkdirSync(ws.source, { recursive: true });
});
afterEach(() => ws.dispose());

const touch = (file: string): void => {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, 'x');
};
const isLog = (name: string): boolean => name.endsWith('.log');

describe('discoverFiles', () => {
  it('finds every accepted file of a tree, sorted by path, each with the names of the files beside it', async () => {
    // Trees of folders a few deep (names from a small set, so folders share names across levels).
    const trees = fc.uniqueArray(
      fc.tuple(
        fc.array(fc.constantFrom('a', 'b', 'c d', 'é'), { maxLength: 3 }),
        fc.constantFrom('1.log', '2.log', 'x.txt'),
      ),
      { maxLength: 12, selector: ([folders, file]) => [...folders, file].join('/') },
    );
    await fc.assert(
      fc.asyncProperty(trees, async (tree) => {
        const root = path.join(ws.root, `tree-${made++}`);
        mkdirSync(root);
        // A file name is never also a folder name here, so every path is creatable.
        const files = tree.map(([folders, file]) => path.join(root, ...folders, file));
        for (const file of files) touch(file);
        const found = await discoverFiles(root, isLog);
        const expected = files
          .filter((f) => isLog(path.basename(f)))
          .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        expect(found.map((f) => f.file)).toEqual(expected);
        for (const { file, siblings } of found) {
          const beside = files
            .filter((f) => path.dirname(f) === path.dirname(file))
            .map((f) => path.basename(f));
          expect([...siblings].sort()).toEqual(beside.sort());
        }
      }),
      { numRuns: 30 },
    );
  });

  it('follows no symlink, to a folder or to a file, and enters no folder `skipDir` refuses', async () => {
    const outside = path.join(ws.root, 'outside');
    touch(path.join(outside, 'far.log'));
    touch(path.join(ws.source, 'near.log'));
    touch(path.join(ws.source, 'checkpoints', 'shadow.log'));
    symlinkSync(outside, path.join(ws.source, 'linked-folder'));
    symlinkSync(path.join(outside, 'far.log'), path.join(ws.source, 'linked.log'));
    // A link to the tree's own root: followed, it would never end.
    symlinkSync(ws.source, path.join(ws.source, 'loop'));

    const found = await discoverFiles(ws.source, isLog, (name) => name === 'checkpoints');
    expect(found.map((f) => f.file)).toEqual([path.join(ws.source, 'near.log')]);
    // Links are not files beside it either.
    expect([...found[0]!.siblings]).toEqual(['near.log']);
    // Without the refusal, the skipped folder's file is found.
    expect((await discoverFiles(ws.source, isLog)).map((f) => f.file)).toEqual([
      path.join(ws.source, 'checkpoints', 'shadow.log'),
      path.join(ws.source, 'near.log'),
    ]);
  });

  it('finds nothing under a folder that does not exist, and fails with the reason on a root that is a file', async () => {
    expect(await discoverFiles(path.join(ws.root, 'absent'), isLog)).toEqual([]);
    const file = path.join(ws.root, 'plain.log');
    touch(file);
    await expect(discoverFiles(file, isLog)).rejects.toMatchObject({ code: 'ENOTDIR' });
  });
});
