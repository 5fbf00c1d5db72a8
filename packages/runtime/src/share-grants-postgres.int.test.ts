import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SHARE_REVOKED_CLOSE_CODE, startHost, type RunningHost } from '@strand/host';
import { grantStoreContract } from '@strand/host/testing';
import { PostgresShareGrants } from '@strand/postgres';
import { createTestDatabase, noPostgres, type TestDatabase } from '@strand/postgres/testing';
import { newSessionHeader, SessionId, SessionSeq } from '@strand/session';
import { RpcTestClient } from './testing/host-fixture.js';
import { openStrandRuntime, type StrandRuntime } from './strand-runtime.js';

describe.skipIf(noPostgres)('share grants on PostgreSQL', () => {
  grantStoreContract('postgres (share_grants)', () => {
    let db: TestDatabase | undefined;
    const open: PostgresShareGrants[] = [];
    const openOne = async (): Promise<PostgresShareGrants> => {
      db ??= await createTestDatabase('strand_share');
      const store = await PostgresShareGrants.open({ url: db.url });
      open.push(store);
      return store;
    };
    return {
      open: openOne,
      reopen: openOne,
      async close() {
        for (const store of open.splice(0)) await store.close();
        await db?.drop();
      },
    };
  });

  it('tells every instance of the database of a revoke, by grant id, once it is committed', async () => {
    const db = await createTestDatabase('strand_share');
    const one = await PostgresShareGrants.open({ url: db.url });
    const other = await PostgresShareGrants.open({ url: db.url });
    try {
      const heard = new Promise<string>((resolve) => other.watchRevocations(resolve));
      await one.add({
        grantId: 'sg_one',
        tokenHash: 'a'.repeat(64),
        sessionId: 's',
        descendants: false,
        expiresAt: null,
        label: null,
        createdBy: 'web',
        createdAt: 1,
        revokedAt: null,
      });
      await one.revoke('sg_one', 2);
      expect(await heard).toBe('sg_one');
      expect((await other.byId('sg_one'))?.revokedAt).toBe(2);
    } finally {
      await one.close();
      await other.close();
      await db.drop();
    }
  });
});

const TOKEN = 'host-token-of-sixteen-or-more';

describe.skipIf(noPostgres)('two hosts sharing one PostgreSQL database: share links', () => {
  let db: TestDatabase;
  const opened: { runtime: StrandRuntime; host: RunningHost; clients: RpcTestClient[] }[] = [];
  const roots: string[] = [];

  afterEach(async () => {
    for (const { runtime, host, clients } of opened.splice(0)) {
      for (const client of clients) client.close();
      await host.close();
      await runtime.close();
    }
    for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
    await db.drop();
  });

  const openHost = async (): Promise<{
    runtime: StrandRuntime;
    host: RunningHost;
    connect: (token: string) => Promise<RpcTestClient>;
  }> => {
    const root = mkdtempSync(path.join(tmpdir(), 'strand-share-pg-'));
    roots.push(root);
    const runtime = await openStrandRuntime({ dataDir: root, store: db.url, syncSearch: false });
    const host = await startHost({ services: runtime.services, token: TOKEN, requireToken: true });
    const entry = { runtime, host, clients: [] as RpcTestClient[] };
    opened.push(entry);
    return {
      runtime,
      host,
      async connect(token) {
        const client = await RpcTestClient.open(`${host.rpcUrl}?token=${encodeURIComponent(token)}`);
        entry.clients.push(client);
        return client;
      },
    };
  };

  it('honours on one host a grant made on the other, and a revoke on that other closes its connections', async () => {
    db = await createTestDatabase('strand_share_hosts');
    const a = await openHost();
    const b = await openHost();
    const id = SessionId('shared-on-pg');
    await a.runtime.services.persistence.create({ header: newSessionHeader({ id, createdAt: 1_000 }) });
    await a.runtime.services.persistence.append(id, [
      { type: 'x/note', seq: SessionSeq(0), time: 1_000, data: {} },
    ]);

    const made = await (
      await a.connect(TOKEN)
    ).call<{ grantId: string; shareToken: string }>('share.create', {
      id,
      createdBy: 'cli:tester',
    });
    // Host b never saw the grant made: it reads it from the shared table.
    const viewer = await b.connect(made.shareToken);
    await viewer.call('session.follow', { id });
    const closed = new Promise<number>((resolve) => viewer.ws.once('close', (code) => resolve(code)));
    // Revoked on host a, where the viewer is not connected: b hears it through the database.
    expect(await (await a.connect(TOKEN)).call('share.revoke', { grant: made.grantId })).toEqual({
      grantId: made.grantId,
      revoked: true,
    });
    expect(await closed).toBe(SHARE_REVOKED_CLOSE_CODE);
    await expect(b.connect(made.shareToken)).rejects.toThrow('HTTP 401');
  });
});
