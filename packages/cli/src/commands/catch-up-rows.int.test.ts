import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importTranscripts } from '@strand/import';
import { openStrandRuntime, type StrandRuntime } from '@strand/runtime';
import { cachedTitles } from '../testing/cached-titles.js';
import { fillCacheRows } from './catch-up-rows.js';
import { changedSessions } from './import.js';

/**
 * The background fill `serve --watch` runs after its catch-up: over a real runtime on a real data
 * folder (a committed Gemini fixture imported by the real importer), the rows it leaves are the
 * ones `strand import` writes, read back from the cache file alone; one session's failure (a
 * fault injected into the query) is one problem, and the others still get theirs.
 */
const FIXTURE = path.resolve(
  fileURLToPath(import.meta.url),
  '../../../../import/src/gemini/fixtures/delegate',
);
const EXPECTED = new Map([
  ['gemini-5a5a5a5a-0000-4000-8000-000000000002', 'Why is checkout slow?'],
  ['gemini-5a5a5a5a-0000-4000-8000-000000000002-n1', 'Objective: Find why checkout is slow'],
  ['gemini-5a5a5a5b-0000-4000-8000-000000000003', 'An unrelated session'],
]);

let root: string;
let data: string;
let ids: string[];
let runtime: StrandRuntime | undefined;
beforeEach(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'strand-catch-up-rows-'));
  cpSync(FIXTURE, path.join(root, 'source'), { recursive: true });
  data = path.join(root, 'data');
  ids = changedSessions(
    await importTranscripts({ harness: 'gemini', sourceDir: path.join(root, 'source'), dataDir: data }),
  );
  runtime = await openStrandRuntime({ dataDir: data });
});
afterEach(async () => {
  await runtime?.close();
  rmSync(root, { recursive: true, force: true });
});

const closeRuntime = async (): Promise<void> => {
  await runtime?.searchReady;
  await runtime?.close();
  runtime = undefined;
};

describe('fillCacheRows', () => {
  it('leaves the rows `strand import` writes, for every session the catch-up imported', async () => {
    expect([...(await cachedTitles(data)).values()].every((t) => t === undefined)).toBe(true);
    const problems: string[] = [];
    const fill = fillCacheRows(runtime!.services.query, ids, (id) => problems.push(id));
    expect(await fill.done).toBe(EXPECTED.size);
    expect(problems).toEqual([]);
    await closeRuntime();
    expect(await cachedTitles(data)).toEqual(EXPECTED);
  });

  it('a session that fails is one problem; the others get their rows', async () => {
    const [bad, ...rest] = [...EXPECTED.keys()] as [string, ...string[]];
    const query = runtime!.services.query;
    const failing: Parameters<typeof fillCacheRows>[0] = {
      observeSession: (id, options) =>
        id === bad ? Promise.reject(new Error('injected read failure')) : query.observeSession(id, options),
    };
    const problems: { id: string; reason: string }[] = [];
    const fill = fillCacheRows(failing, ids, (id, error) =>
      problems.push({ id, reason: (error as Error).message }),
    );
    expect(await fill.done).toBe(rest.length);
    expect(problems).toEqual([{ id: bad, reason: 'injected read failure' }]);
    await closeRuntime();
    const titles = await cachedTitles(data);
    expect(titles.get(bad)).toBeUndefined();
    for (const id of rest) expect(titles.get(id)).toBe(EXPECTED.get(id));
  });

  it('stop() ends the fill after the session in hand', async () => {
    const fill = fillCacheRows(runtime!.services.query, ids, () => undefined);
    expect(await fill.stop()).toBeLessThanOrEqual(1);
    expect(await fill.done).toBeLessThan(ids.length);
  });
});
