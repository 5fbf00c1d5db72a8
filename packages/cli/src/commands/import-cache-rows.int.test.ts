import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cachedTitles, indexedUsage } from '../testing/cached-titles.js';
import { strand } from '../testing/strand-process.js';

// A synthetic Gemini folder committed with the importer: two chats of one session, a copy, one other.
const FIXTURE = path.resolve(
  fileURLToPath(import.meta.url),
  '../../../../import/src/gemini/fixtures/delegate',
);

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'strand-import-rows-'));
  cpSync(FIXTURE, path.join(root, 'source'), { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('strand import writes projection cache rows', () => {
  it('every imported session has its title row at once; a second import changes nothing', async () => {
    const data = path.join(root, 'data');
    const first = strand('import', 'gemini', path.join(root, 'source'), '--data', data, '--json');
    expect(first.code).toBe(0);
    expect(first.stderr).not.toContain('projection cache');
    const titles = await cachedTitles(data);
    // Usage hours beside each list row, so `usage.summary` reads no log of them.
    expect([...(await indexedUsage(data)).keys()].sort()).toEqual([...titles.keys()].sort());
    expect(titles).toEqual(
      new Map([
        ['gemini-5a5a5a5a-0000-4000-8000-000000000002', 'Why is checkout slow?'],
        ['gemini-5a5a5a5a-0000-4000-8000-000000000002-n1', 'Objective: Find why checkout is slow'],
        ['gemini-5a5a5a5b-0000-4000-8000-000000000003', 'An unrelated session'],
      ]),
    );
    const listed = strand('list', '--data', data, '--json').json() as {
      sessions: { id: string; hints?: { values: { title?: unknown } } }[];
    };
    expect(listed.sessions.map((s) => s.hints?.values.title).sort()).toEqual([
      'An unrelated session',
      'Objective: Find why checkout is slow',
      'Why is checkout slow?',
    ]);
    const again = strand('import', 'gemini', path.join(root, 'source'), '--data', data, '--json');
    expect(again.json()).toMatchObject({ imported: 0, updated: 0, unchanged: 3 });
    expect(await cachedTitles(data)).toEqual(titles);
  });
});
