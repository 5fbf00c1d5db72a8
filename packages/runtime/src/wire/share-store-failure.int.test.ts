import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShareGrantStore } from '@strand/host';
import type { Logger } from '@strand/session';
import { hostFixture, upgrade, type HostFixture } from '../testing/host-fixture.js';
import { FileShareGrantStore } from '../share-grants-file.js';

/**
 * The grant store failing (on PostgreSQL: the database unreachable; on files: the folder
 * unwritable) is a typed, documented answer everywhere a grant is read or written — never an
 * internal error, a dropped socket or a 500 — and it is neither an allowed connection nor a
 * failed guess.
 */
const TOKEN = 'host-token-of-sixteen-or-more';
const SHARED = 'shared-session';

/** A real grant store whose every call fails while `failing` is set, as a lost database would. */
class FailingStore implements ShareGrantStore {
  failing = false;
  constructor(private readonly inner: ShareGrantStore) {}
  #call<T>(run: () => Promise<T>): Promise<T> {
    return this.failing ? Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432')) : run();
  }
  add: ShareGrantStore['add'] = (grant) => this.#call(() => this.inner.add(grant));
  byTokenHash: ShareGrantStore['byTokenHash'] = (hash) => this.#call(() => this.inner.byTokenHash(hash));
  byId: ShareGrantStore['byId'] = (id) => this.#call(() => this.inner.byId(id));
  list: ShareGrantStore['list'] = () => this.#call(() => this.inner.list());
  revoke: ShareGrantStore['revoke'] = (id, at) => this.#call(() => this.inner.revoke(id, at));
}

const warnings: string[] = [];
const logger: Logger = {
  error: () => undefined,
  warn: (message) => warnings.push(message),
  info: () => undefined,
  debug: () => undefined,
};

let f: HostFixture;
let dir: string;
let store: FailingStore;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'strand-share-failing-'));
  store = new FailingStore(await FileShareGrantStore.open(dir));
  f = await hostFixture({
    token: TOKEN,
    requireToken: true,
    limits: { maxAuthFailures: 2 },
    services: { shares: store, logger },
  });
  await f.storedSession(SHARED, 1);
});

afterAll(async () => {
  await f.close();
  rmSync(dir, { recursive: true, force: true });
});

const codeOf = (body: string): string | undefined =>
  (JSON.parse(body) as { error?: { data?: { code?: string } } }).error?.data?.code;

const auth = async (token: string): Promise<unknown> =>
  (
    await fetch(`http://127.0.0.1:${f.host.port}/auth`, { headers: { authorization: `Bearer ${token}` } })
  ).json();

describe('a share grant store that fails', () => {
  it('answers share.create, share.list and share.revoke with HOST_SHARE_STORE_FAILED, and works again once it heals', async () => {
    const owner = await f.connect({ token: TOKEN });
    const made = await owner.call<{ grantId: string; shareToken: string }>('share.create', {
      id: SHARED,
      createdBy: 'web',
    });
    store.failing = true;
    warnings.length = 0;
    try {
      const calls = [
        ['share.create', { id: SHARED, createdBy: 'web' }],
        ['share.list', {}],
        ['share.revoke', { grant: made.grantId }],
      ] as const;
      for (const [method, params] of calls) {
        const reply = await owner.request(method, params);
        expect([method, reply.error?.data.code]).toEqual([method, 'HOST_SHARE_STORE_FAILED']);
        expect(reply.error?.message).toMatch(/try again/);
      }
      // The cause goes to the host's log, not to the wire.
      expect(warnings).toHaveLength(3);
    } finally {
      store.failing = false;
    }
    const listed = await owner.call<{ grants: { grantId: string; status: string }[] }>('share.list', {});
    expect(listed.grants.map((g) => [g.grantId, g.status])).toContainEqual([made.grantId, 'active']);
  });

  it('refuses a share token at the upgrade with 503 and says `unavailable` in /auth, without counting it as a guess', async () => {
    const owner = await f.connect({ token: TOKEN });
    const { shareToken } = await owner.call<{ shareToken: string }>('share.create', {
      id: SHARED,
      createdBy: 'web',
    });
    store.failing = true;
    try {
      // More attempts than the limit (2): none of them counts, so the link still opens after.
      for (let i = 0; i < 4; i++) {
        const refused = await upgrade(f.host.rpcUrl, { authorization: `Bearer ${shareToken}` });
        expect([refused.status, codeOf(refused.body)]).toEqual([503, 'HOST_SHARE_STORE_FAILED']);
      }
      expect(await auth(shareToken)).toMatchObject({
        status: 'unavailable',
        code: 'HOST_SHARE_STORE_FAILED',
      });
      // The host token needs no grant: it still connects and reads.
      expect((await upgrade(f.host.rpcUrl, { authorization: `Bearer ${TOKEN}` })).status).toBe(101);
    } finally {
      store.failing = false;
    }
    expect((await upgrade(f.host.rpcUrl, { authorization: `Bearer ${shareToken}` })).status).toBe(101);
    expect(await auth(shareToken)).toMatchObject({ status: 'share' });
  });
});
