import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startHost } from '@strand/host';
import { PostgresProjectionCache } from '@strand/postgres';
import { createTestDatabase, noPostgres, sqlOnce, type TestDatabase } from '@strand/postgres/testing';
import {
  expectReconciled,
  listCorpusOrder,
  pageThrough,
  writeListCorpus,
  type ListPage,
} from './test/list-corpus.js';
import { RpcTestClient } from './testing/host-fixture.js';
import { openStrandRuntime, type StrandRuntime } from './strand-runtime.js';

/*
 * `session.list` on PostgreSQL answered from the list index (`list_rows`): two hosts of one
 * database, a corpus one host writes paged by the other without listing every header or reading a
 * log, a session created on one host listed by the other at once, and an emptied index
 * reconciled at open so no page is short.
 */

let db: TestDatabase | undefined;
const roots: string[] = [];
const undo: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const step of undo.splice(0).reverse()) await step();
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
  await db?.drop();
  db = undefined;
});

interface Host {
  readonly runtime: StrandRuntime;
  readonly client: RpcTestClient;
}

async function open(): Promise<Host> {
  db ??= await createTestDatabase();
  const root = mkdtempSync(path.join(tmpdir(), 'strand-pg-list-'));
  roots.push(root);
  const runtime = await openStrandRuntime({ dataDir: root, store: db.url, syncSearch: false });
  undo.push(() => runtime.close());
  const host = await startHost({ services: runtime.services });
  undo.push(() => host.close());
  const client = await RpcTestClient.open(host.rpcUrl);
  undo.push(() => client.close());
  return { runtime, client };
}

async function closeAll(): Promise<void> {
  for (const step of undo.splice(0).reverse()) await step();
}

/** Until this host's list rows (written behind) are committed, where other hosts read them. */
async function committed(host: Host): Promise<void> {
  const cache = host.runtime.services.cache;
  if (!(cache instanceof PostgresProjectionCache)) throw new Error('not a PostgreSQL host');
  await cache.drain();
}

describe.skipIf(noPostgres)('session.list from the list index on PostgreSQL', () => {
  it('host 2 pages the corpus host 1 wrote, without listing every header or reading a log', async () => {
    const one = await open();
    const two = await open();
    await writeListCorpus(one.runtime.services.persistence);
    await committed(one);
    const persistence = two.runtime.services.persistence;
    const reads = ['list', 'inspect', 'load', 'scan', 'readFrom', 'revisionOf'] as const;
    const spies = reads.map((name) => vi.spyOn(persistence, name));
    expect(await pageThrough(two.client, { parent: null }, 4)).toEqual(listCorpusOrder());
    expect(await pageThrough(two.client, { cwd: '/a' }, 2)).toEqual(listCorpusOrder((n) => n % 3 === 0));
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
  });

  it('a session created on host 1 is in host 2 list at once, busy there while host 1 holds it', async () => {
    const one = await open();
    const two = await open();
    const { id } = await one.client.call<{ id: string }>('session.create', { cwd: '/new' });
    await committed(one);
    const [row] = (await two.client.call<ListPage>('session.list', { cwd: '/new' })).sessions;
    expect(row).toMatchObject({ id, live: false, busy: true, ownedElsewhere: true });
  });

  it('an emptied list index is reconciled at open: the first page is complete, hints follow', async () => {
    const first = await open();
    await writeListCorpus(first.runtime.services.persistence);
    await closeAll();
    await sqlOnce(db!.url, 'TRUNCATE list_rows');
    const { runtime, client } = await open();
    const page = await expectReconciled(runtime, client);
    expect(page.sessions.find((row) => row.id === 's00')?.hints?.values.title).toBe('Title of s00');
  });
});
