import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { persistenceWriter, type SessionPersistence } from '@strand/persistence';
import { createTestDatabase, noPostgres, sqlOnce, type TestDatabase } from '@strand/postgres/testing';
import { Session, SessionId, newSessionHeader } from '@strand/session';
import { CountingPersistence } from '@strand/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStrandRuntime } from './strand-runtime.js';

/*
 * list-reconcile-marker.int.test.ts on PostgreSQL: the list index records the persistence change
 * marker its last completed walk saw (behind the walk's rows in the write-behind), so an open over
 * an unchanged database walks nothing, and any host's create makes the next open walk.
 */

let db: TestDatabase | undefined;
const roots: string[] = [];
beforeEach(async () => {
  if (!noPostgres) db = await createTestDatabase();
});
afterEach(async () => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
  await db?.drop();
  db = undefined;
});

/** Opens a host's runtime on the test database (its own data dir), runs `body`, closes; resolves with the walks at open. */
async function openOnce(
  body: (runtime: Awaited<ReturnType<typeof openStrandRuntime>>) => Promise<void> = async () => {},
) {
  const root = mkdtempSync(path.join(tmpdir(), 'strand-pg-marker-'));
  roots.push(root);
  let counting: CountingPersistence | undefined;
  const runtime = await openStrandRuntime({
    dataDir: root,
    store: db!.url,
    syncSearch: false,
    wrapPersistence: (inner) => (counting = new CountingPersistence(inner)),
  });
  try {
    const walks = counting!.walks;
    await runtime.listReady;
    await body(runtime);
    return walks;
  } finally {
    await runtime.close();
  }
}

async function createSession(persistence: SessionPersistence, id: string): Promise<void> {
  const header = newSessionHeader({ id: SessionId(id), createdAt: 1_000 });
  const { incarnation } = await persistence.create({ header });
  await new Session({ header, incarnation, writer: persistenceWriter(persistence, header.id) }).append([
    { type: 'session/title', data: { title: id } },
  ]);
}

describe.skipIf(noPostgres)('host open over an unchanged PostgreSQL corpus', () => {
  it('walks the stored sessions only when they changed since the last completed walk', async () => {
    expect(await openOnce()).toBe(1);
    // Nothing changed: the marker recorded (and committed at close) by the first open matches.
    expect(await openOnce()).toBe(0);
    // Another host stores a session: the database's marker moves past the recorded one.
    await openOnce(({ services }) => createSession(services.persistence, 'made-elsewhere'));
    expect(await openOnce()).toBe(1);
    expect(await openOnce()).toBe(0);
    // Another build empties the index (a delete of list rows drops the marker): the next open walks.
    await sqlOnce(db!.url, 'DELETE FROM list_rows');
    expect(await openOnce()).toBe(1);
    expect(await openOnce()).toBe(0);
  });
});
