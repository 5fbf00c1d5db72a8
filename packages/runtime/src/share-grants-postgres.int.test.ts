import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SHARE_REVOKED_CLOSE_CODE, startHost, type RunningHost } from '@strand/host';
import { grantStoreContract } from '@strand/host/testing';
import { PostgresShareGrants, type StoredShareGrant } from '@strand/postgres';
import {
  createTestDatabase,
  noPostgres,
  sqlOnce,
  testPgUrl,
  type TestDatabase,
} from '@strand/postgres/testing';
import { HANG_GUARD_MS } from '@strand/test-support';
import { newSessionHeader, SessionId, SessionSeq, silentLogger } from '@strand/session';
import { RpcTestClient } from './testing/host-fixture.js';
import { openStrandRuntime, type StrandRuntime } from './strand-runtime.js';

const hashShareToken = (token: string): string => createHash('sha256').update(token).digest('hex');

const grantRow = (grantId: string): StoredShareGrant => ({
  grantId,
  tokenHash: hashShareToken(grantId),
  sessionId: 's',
  descendants: false,
  expiresAt: null,
  label: null,
  createdBy: 'web',
  createdAt: 1,
  revokedAt: null,
});

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
      await one.add(grantRow('sg_one'));
      await one.revoke('sg_one', 2);
      expect(await heard).toBe('sg_one');
      expect((await other.byId('sg_one'))?.revokedAt).toBe(2);
    } finally {
      await one.close();
      await other.close();
      await db.drop();
    }
  });

  it('survives the server ending its idle pooled connection (reported to its logger, found by the soak) and answers on a fresh one', async () => {
    const db = await createTestDatabase('strand_share');
    const name = new URL(db.url).pathname.slice(1);
    const errors: string[] = [];
    const logger = { ...silentLogger, error: (message: string) => void errors.push(message) };
    const grants = await PostgresShareGrants.open({ url: db.url, logger });
    try {
      await grants.add(grantRow('sg_idle'));
      // Its pool's connection is idle now; the server ends it (the listener's too: it reconnects).
      await sqlOnce(
        testPgUrl!,
        `SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`,
        [name],
      );
      await vi.waitFor(() => expect(errors).toContain('share grants: an idle connection failed'), {
        timeout: HANG_GUARD_MS,
      });
      expect((await grants.byId('sg_idle'))?.grantId).toBe('sg_idle');
    } finally {
      await grants.close();
      await db.drop();
    }
  });

  it('reports the revokes made while its listening connection was down, once it listens again', async () => {
    const db = await createTestDatabase('strand_share');
    const name = new URL(db.url).pathname.slice(1);
    const admin = (text: string, values: unknown[] = []) => sqlOnce(testPgUrl!, text, values);
    const one = await PostgresShareGrants.open({ url: db.url });
    const other = await PostgresShareGrants.open({ url: db.url, reconnectMs: { first: 20, max: 20 } });
    try {
      await one.add(grantRow('sg_missed'));
      const heard: string[] = [];
      other.watchRevocations((id) => heard.push(id));
      // `other` goes deaf: its listener is ended and cannot come back while `one` revokes (on a
      // pooled connection it already holds).
      await admin(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
      try {
        await admin(
          `SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity
           WHERE datname = $1 AND query LIKE 'LISTEN%'`,
          [name],
        );
        await one.revoke('sg_missed', 3);
        expect(heard).toEqual([]);
      } finally {
        await admin(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
      }
      await vi.waitFor(() => expect(heard).toContain('sg_missed'), { timeout: HANG_GUARD_MS });
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
