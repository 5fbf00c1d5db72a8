import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { ProjectionRegistry } from '@strand/projection';
import { SessionId, newSessionHeader } from '@strand/session';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProjectionCache } from '../cache.js';
import type { ListIndexStore } from './list-index-store.js';

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'strand-list-reconcile-'));
  path = join(dir, 'cache.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const open = () => ProjectionCache.open({ path, registry: new ProjectionRegistry() });
const indexOf = (cache: ProjectionCache): ListIndexStore => cache.listIndex!;
const note = (cache: ProjectionCache, id: string, hints: boolean, usage: boolean) =>
  cache.noteSession(
    { header: newSessionHeader({ id: SessionId(id), createdAt: 1_000 }), incarnation: 'i1' },
    hints ? { asOfSeq: 0, values: {} } : undefined,
    usage ? { asOfSeq: 0, byHour: [] } : undefined,
  );

/** Another connection to the file: an older build, or another tool. */
function raw(sql: string): void {
  const db = new Database(path);
  try {
    db.exec(sql);
  } finally {
    db.close();
  }
}

describe('the SQLite list index’s reconciled marker', () => {
  it('is kept across a restart, and dropped by clear, by a row’s deletion and by another build’s delete', async () => {
    let cache = open();
    note(cache, 'a', true, true);
    note(cache, 'b', true, true);
    expect(await indexOf(cache).reconciledMarker!()).toBeUndefined();
    indexOf(cache).recordReconciledMarker!('db:1');
    indexOf(cache).recordReconciledMarker!('db:2');
    cache.close();
    cache = open();
    expect(await indexOf(cache).reconciledMarker!()).toBe('db:2');

    indexOf(cache).forget('a');
    expect(await indexOf(cache).reconciledMarker!()).toBeUndefined();

    indexOf(cache).recordReconciledMarker!('db:3');
    // A build from before the marker empties the index (its `doctor --rebuild-list`).
    raw('DELETE FROM list_rows');
    expect(await indexOf(cache).reconciledMarker!()).toBeUndefined();

    indexOf(cache).recordReconciledMarker!('db:4');
    // Nothing to delete: clear still drops the marker itself.
    indexOf(cache).clear();
    expect(await indexOf(cache).reconciledMarker!()).toBeUndefined();
    cache.close();
  });

  it('is added to a file from before it, whose rows are all still found unfolded when they are', async () => {
    let cache = open();
    note(cache, 'folded', true, true);
    note(cache, 'no-hints', false, true);
    cache.close();
    raw('DROP TRIGGER list_rows_drop_marker; DROP INDEX list_rows_unfolded; DROP TABLE list_meta;');
    cache = open();
    expect(await indexOf(cache).reconciledMarker!()).toBeUndefined();
    expect(await indexOf(cache).unfoldedIds!({ after: '', limit: 10 })).toEqual(['no-hints']);
    cache.close();
  });
});

describe('unfoldedIds', () => {
  it('pages exactly the rows whose hints or usage are unknown, in id order', async () => {
    const rowsArb = fc.uniqueArray(
      fc.tuple(fc.string({ minLength: 1, maxLength: 4 }), fc.boolean(), fc.boolean()),
      {
        selector: ([id]) => id,
        maxLength: 25,
      },
    );
    await fc.assert(
      fc.asyncProperty(rowsArb, fc.integer({ min: 1, max: 6 }), async (rows, limit) => {
        const cache = ProjectionCache.open({ path: ':memory:', registry: new ProjectionRegistry() });
        for (const [id, hints, usage] of rows) note(cache, id, hints, usage);
        const index = indexOf(cache);
        const paged: string[] = [];
        for (let after = ''; ; ) {
          const page = await index.unfoldedIds!({ after, limit });
          expect(page.length).toBeLessThanOrEqual(limit);
          paged.push(...page);
          if (page.length < limit) break;
          after = page.at(-1)!;
        }
        const all = await index.identities({ after: '', limit: 1_000 });
        expect(paged).toEqual(
          all.filter((row) => row.asOfSeq === null || !row.usageKnown).map((row) => row.sessionId),
        );
        cache.close();
      }),
      { numRuns: 100 },
    );
  });
});
