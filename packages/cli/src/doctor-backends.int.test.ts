import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { persistenceWriter } from '@strand/persistence';
import { createTestDatabase, noPostgres, sqlOnce, type TestDatabase } from '@strand/postgres/testing';
import { ProjectionCache } from '@strand/projection-cache';
import { openStrandRuntime, strandRegistry, type RuntimeOptions } from '@strand/runtime';
import { STORE_FILES } from '@strand/stack';
import { Session, SessionId, newSessionHeader } from '@strand/session';
import { strandAsync } from './testing/strand-process.js';

const IDS = ['doctor-a', 'doctor-b'];

/** Writes two closed sessions through the runtime a host would open over `store`. */
async function seed(store: Pick<RuntimeOptions, 'dataDir' | 'backend' | 'store'>): Promise<void> {
  const runtime = await openStrandRuntime({ ...store, syncSearch: false });
  try {
    const { persistence } = runtime.services;
    for (const id of IDS) {
      const header = newSessionHeader({ id: SessionId(id), createdAt: 1_000 });
      const { incarnation } = await persistence.create({ header });
      const session = new Session({ header, incarnation, writer: persistenceWriter(persistence, header.id) });
      await session.append([
        { type: 'session/title', data: { title: `doctor ${id}` } },
        { type: 'turn/start', data: {} },
        { type: 'user/message', data: { content: `ripen the kumquat for ${id}`, author: 'human' } },
        { type: 'assistant/message', data: { content: 'ripe', usage: { input: 1, output: 1 } } },
        { type: 'turn/end', data: { reason: 'completed' } },
      ]);
    }
  } finally {
    await runtime.close();
  }
}

/** Runs doctor with rebuilds, then searches the rebuilt index through a fresh runtime. */
async function doctorRebuilds(store: Pick<RuntimeOptions, 'dataDir' | 'backend' | 'store'>, flags: string[]) {
  const run = await strandAsync([
    'doctor',
    '--data',
    store.dataDir,
    ...flags,
    '--rebuild-index',
    '--rebuild-cache',
    '--json',
  ]);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  const runtime = await openStrandRuntime({ ...store, syncSearch: false });
  try {
    const page = await runtime.search.search('kumquat', {});
    return { report: run.json(), found: page.results.map((r) => r.sessionId).sort() };
  } finally {
    await runtime.close();
  }
}

describe('strand doctor checks the store the host would serve', () => {
  let dir: string | undefined;
  let db: TestDatabase | undefined;
  afterEach(async () => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    await db?.drop();
    dir = db = undefined;
  });

  it('a SQLite data folder (--backend sqlite): verifies its sessions and rebuilds its index and cache', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'strand-doctor-sqlite-'));
    const store = { dataDir: dir, backend: 'sqlite' as const };
    await seed(store);
    const { report, found } = await doctorRebuilds(store, ['--backend', 'sqlite']);
    expect(report).toMatchObject({ sessions: 2, findings: [], cacheRows: 2 });
    expect((report as { eventsIndexed: number }).eventsIndexed).toBeGreaterThanOrEqual(2);
    expect(found).toEqual(IDS);
    // It read the SQLite database, not an empty JSONL folder beside it.
    expect(existsSync(path.join(dir, 'sessions'))).toBe(false);
  });

  it.skipIf(noPostgres)(
    'a PostgreSQL store (--store): verifies its sessions and rebuilds its index and cache',
    async () => {
      dir = mkdtempSync(path.join(tmpdir(), 'strand-doctor-pg-'));
      db = await createTestDatabase();
      const store = { dataDir: dir, store: db.url };
      await seed(store);
      const { report, found } = await doctorRebuilds(store, ['--store', db.url]);
      expect(report).toMatchObject({ sessions: 2, findings: [], cacheRows: 2 });
      expect(found).toEqual(IDS);
    },
  );
});

describe('strand doctor --rebuild-list', () => {
  let dir: string | undefined;
  let db: TestDatabase | undefined;
  afterEach(async () => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    await db?.drop();
    dir = db = undefined;
  });

  const openCache = (root: string): ProjectionCache =>
    ProjectionCache.open({ path: path.join(root, STORE_FILES.projectionCache), registry: strandRegistry() });

  it("writes every stored session's list row again from its log, and drops rows of sessions not stored", async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'strand-doctor-list-'));
    await seed({ dataDir: dir });
    const damaged = openCache(dir);
    try {
      damaged.listIndex!.clear();
      damaged.noteSession({
        header: newSessionHeader({ id: SessionId('ghost'), createdAt: 5 }),
        incarnation: 'x',
      });
      // A marker recorded for this damaged index: the rebuild must drop it, or the next open
      // would trust it and skip the reconcile.
      damaged.listIndex!.recordReconciledMarker!('recorded-before-the-rebuild');
    } finally {
      damaged.close();
    }
    const run = await strandAsync(['doctor', '--data', dir, '--rebuild-list', '--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.json()).toMatchObject({ sessions: 2, findings: [], listRows: 2 });
    const rebuilt = openCache(dir);
    try {
      const rows = await rebuilt.listIndex!.page({ filter: {}, limit: 10 });
      expect(rows.map((row) => [row.header.id, row.hints?.values.title]).sort()).toEqual(
        IDS.map((id) => [id, `doctor ${id}`]),
      );
      // Usage hours are rewritten with the rows: every session's usage is known again.
      expect((await rebuilt.listIndex!.usage({})).map((session) => session.id).sort()).toEqual(IDS);
      expect(await rebuilt.listIndex!.reconciledMarker!()).toBeUndefined();
    } finally {
      rebuilt.close();
    }
  });

  it.skipIf(noPostgres)('on PostgreSQL (--store): rewrites list_rows from the logs', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'strand-doctor-list-pg-'));
    db = await createTestDatabase();
    await seed({ dataDir: dir, store: db.url });
    await sqlOnce(db.url, 'DELETE FROM list_rows');
    await sqlOnce(
      db.url,
      "INSERT INTO list_rows (session_id, incarnation, header, activity_at, harness) VALUES ('ghost', 'x', '{}', 5, 'strand')",
    );
    const run = await strandAsync(['doctor', '--data', dir, '--store', db.url, '--rebuild-list', '--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.json()).toMatchObject({ sessions: 2, findings: [], listRows: 2 });
    const rows = await sqlOnce(db.url, 'SELECT session_id, title FROM list_rows ORDER BY session_id');
    expect(rows.rows).toEqual(IDS.map((id) => ({ session_id: id, title: `doctor ${id}` })));
    const known = await sqlOnce(
      db.url,
      'SELECT session_id FROM list_rows WHERE usage_as_of IS NOT NULL ORDER BY session_id',
    );
    expect(known.rows).toEqual(IDS.map((id) => ({ session_id: id })));
  });
});
