import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ProjectionCache } from '@strand/projection-cache';
import { strandRegistry } from '@strand/runtime/registry';
import {
  SessionId,
  SessionLogOffset,
  SessionSeq,
  type SessionEvent,
  type SessionHeader,
} from '@strand/session';
import { STORE_FILES } from '@strand/stack';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { digestSession, type CacheRowsDigest } from './import-cache-digest.js';
import { ImportCacheRows } from './import-cache-rows.js';

let data: string;
beforeEach(() => {
  data = mkdtempSync(path.join(tmpdir(), 'strand-import-rows-faults-'));
});
afterEach(() => rmSync(data, { recursive: true, force: true }));

const header = (id: string): SessionHeader => ({
  version: 1,
  id: SessionId(id),
  createdAt: 1_000,
  isSeeded: false,
  source: { harness: 'codex', sourceId: id },
});
const titled = (title: string): SessionEvent[] =>
  [
    { type: 'turn/start', data: {} },
    { type: 'session/title', data: { title } },
    { type: 'turn/end', data: { reason: 'completed' } },
  ].map((e, seq) => Object.freeze({ ...e, seq: SessionSeq(seq), time: 1_000 + seq }) as SessionEvent);

/** The digest a lane makes of a session with this title (the real registry, the real fold). */
const digestOf = (id: string, title: string, incarnation = 'inc-1'): CacheRowsDigest =>
  digestSession({
    header: header(id),
    events: titled(title),
    inheritedEventCount: SessionLogOffset(0),
    incarnation,
  });

function cachedTitle(id: string, incarnation = 'inc-1'): unknown {
  const cache = ProjectionCache.open({
    path: path.join(data, STORE_FILES.projectionCache),
    registry: strandRegistry(),
  });
  try {
    return cache.cachedSnapshot({ header: header(id), incarnation }, SessionLogOffset(0), ['title'])?.values
      .title;
  } finally {
    cache.close();
  }
}

describe("strand import's cache rows, when something fails", () => {
  it('a session whose rows cannot be written costs only its rows, and is named', () => {
    const rows = new ImportCacheRows(data);
    const good = digestOf('s-good', 'Kept');
    const bad = digestOf('s-bad', 'Lost');
    // A state that is not JSON: its put throws inside the batch.
    const broken: CacheRowsDigest = {
      ...bad,
      ...(bad.kind === 'put'
        ? { rows: { ...bad.rows, title: { ...bad.rows.title!, state: undefined } } }
        : {}),
    };
    rows.digest.collect([broken, good]);
    const result = rows.finish();
    expect(result.written).toBe(1);
    expect(result.problems).toEqual([
      {
        id: 's-bad',
        reason: expect.stringContaining('cannot write projection cache rows of s-bad') as string,
      },
    ]);
    expect(cachedTitle('s-good')).toBe('Kept');
    expect(cachedTitle('s-bad')).toBeUndefined();
  });

  it("a failed fold drops the session's older rows and is named", () => {
    const first = new ImportCacheRows(data);
    first.digest.collect([digestOf('s1', 'Before')]);
    expect(first.finish()).toEqual({ written: 1, problems: [] });
    const again = new ImportCacheRows(data);
    again.digest.collect([{ kind: 'forget', header: header('s1'), reason: 'a unit threw' }]);
    expect(again.finish()).toEqual({
      written: 0,
      problems: [{ id: 's1', reason: 'projection fold failed: a unit threw' }],
    });
    expect(cachedTitle('s1')).toBeUndefined();
  });

  it('a cache that cannot be opened names every session of the batch; nothing collected opens nothing', () => {
    const missing = path.join(data, 'absent', 'folder');
    const rows = new ImportCacheRows(missing);
    rows.digest.collect([digestOf('s1', 'One'), digestOf('s2', 'Two')]);
    const result = rows.finish();
    expect(result.written).toBe(0);
    expect(result.problems.map((p) => p.id)).toEqual(['s1', 's2']);
    expect(new ImportCacheRows(data).finish()).toEqual({ written: 0, problems: [] });
    expect(existsSync(path.join(data, STORE_FILES.projectionCache))).toBe(false);
  });

  it('writes a large import in commits of many sessions, every one of them', () => {
    const rows = new ImportCacheRows(data);
    const ids = Array.from({ length: 600 }, (_, i) => `s-${i}`);
    // Arriving file by file, as lanes hand them over.
    for (let i = 0; i < ids.length; i += 7)
      rows.digest.collect(ids.slice(i, i + 7).map((id) => digestOf(id, id)));
    expect(rows.finish()).toEqual({ written: 600, problems: [] });
    for (const id of [ids[0]!, ids[299]!, ids[599]!]) expect(cachedTitle(id)).toBe(id);
  });
});
