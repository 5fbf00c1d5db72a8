import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importTranscripts } from './import-transcripts.js';
import { readStore, workspace, type Workspace } from '../testing/fixture-dirs.js';
import { codexRollout } from '../testing/synthetic.js';

const HERE = '01b00000-0000-7000-8000-0000000000c1';
const IN_DATA = '01b00000-0000-7000-8000-0000000000c2';
const BESIDE_DATA = '01b00000-0000-7000-8000-0000000000c3';

let ws: Workspace;
beforeEach(() => {
  ws = workspace();
});
afterEach(() => ws.dispose());

const rollout = (folder: string, id: string): string => {
  mkdirSync(folder, { recursive: true });
  const file = path.join(folder, `rollout-2026-02-10T09-00-00-${id}.jsonl`);
  writeFileSync(file, codexRollout({ id, turns: 2 }));
  return file;
};

describe('a data folder inside the source folder (`strand import codex .`)', () => {
  it('is never read, while a folder beside it whose name begins with its name is', async () => {
    const data = path.join(ws.source, 'strand');
    rollout(ws.source, HERE);
    // A transcript that only the data folder holds, and one in a sibling named like it.
    rollout(path.join(data, 'kept'), IN_DATA);
    const beside = rollout(path.join(ws.source, 'strand-old'), BESIDE_DATA);
    const codex = () => importTranscripts({ harness: 'codex', sourceDir: ws.source, dataDir: data });

    const first = await codex();
    expect(first).toMatchObject({ files: 2, imported: 2, failed: 0 });
    expect(first.sessions.map((s) => s.file)).toContain(beside);
    const stored = await readStore(data);
    expect([...stored.keys()].sort()).toEqual([`codex-${HERE}`, `codex-${BESIDE_DATA}`]);

    // Again, with the data folder now full of Strand's own files: still only the two transcripts.
    expect(await codex()).toMatchObject({ files: 2, imported: 0, unchanged: 2, failed: 0 });
  });
});
