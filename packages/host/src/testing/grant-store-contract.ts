import { describe, expect, it } from 'vitest';
import type { ShareGrant, ShareGrantStore } from '../share/grant-store.js';
import { hashShareToken, newGrantId, newShareToken } from '../share/share-token.js';

/** An engine under test: a fresh empty store, and the same store opened again (a restart). */
export interface GrantStoreEngine {
  open(): Promise<ShareGrantStore>;
  reopen(): Promise<ShareGrantStore>;
  close(): Promise<void>;
}

function grant(overrides: Partial<ShareGrant> = {}): ShareGrant {
  return {
    grantId: newGrantId(),
    tokenHash: hashShareToken(newShareToken()),
    sessionId: 'shared-session',
    descendants: false,
    expiresAt: 1_000_000,
    label: null,
    createdBy: 'cli:tester',
    createdAt: 1_000,
    revokedAt: null,
    ...overrides,
  };
}

/**
 * What every share grant store does (the files engine now, PostgreSQL next): grants are found by
 * id and by token hash, listed oldest first, revoked once (the first time kept), and all of it
 * survives a reopen.
 */
export function grantStoreContract(name: string, engine: () => GrantStoreEngine): void {
  describe(`${name}: the share grant store contract`, () => {
    async function withStore(
      fn: (store: ShareGrantStore, e: GrantStoreEngine) => Promise<void>,
    ): Promise<void> {
      const e = engine();
      try {
        await fn(await e.open(), e);
      } finally {
        await e.close();
      }
    }

    it('finds a grant by id and by token hash, and nothing by another', () =>
      withStore(async (store) => {
        const g = grant({ label: 'for Ana', descendants: true, expiresAt: null });
        await store.add(g);
        expect(await store.byId(g.grantId)).toEqual(g);
        expect(await store.byTokenHash(g.tokenHash)).toEqual(g);
        expect(await store.byId('sg_nope')).toBeUndefined();
        expect(await store.byTokenHash(hashShareToken('another'))).toBeUndefined();
      }));

    it('lists every grant oldest first, revoked ones too', () =>
      withStore(async (store) => {
        const later = grant({ createdAt: 3_000 });
        const earlier = grant({ createdAt: 2_000 });
        await store.add(later);
        await store.add(earlier);
        await store.revoke(earlier.grantId, 4_000);
        expect((await store.list()).map((g) => g.grantId)).toEqual([earlier.grantId, later.grantId]);
      }));

    it('revokes once: the first revokedAt stays, and an unknown id is undefined', () =>
      withStore(async (store) => {
        const g = grant();
        await store.add(g);
        expect((await store.revoke(g.grantId, 5_000))?.revokedAt).toBe(5_000);
        expect((await store.revoke(g.grantId, 9_000))?.revokedAt).toBe(5_000);
        expect((await store.byTokenHash(g.tokenHash))?.revokedAt).toBe(5_000);
        expect(await store.revoke('sg_nope', 5_000)).toBeUndefined();
      }));

    it('keeps grants and revocations across a reopen', () =>
      withStore(async (store, e) => {
        const kept = grant({ label: 'kept' });
        const revoked = grant();
        await store.add(kept);
        await store.add(revoked);
        await store.revoke(revoked.grantId, 7_000);
        const again = await e.reopen();
        expect(await again.byId(kept.grantId)).toEqual(kept);
        expect(await again.byTokenHash(revoked.tokenHash)).toEqual({ ...revoked, revokedAt: 7_000 });
      }));

    it('keeps every grant of concurrent adds', () =>
      withStore(async (store, e) => {
        const many = Array.from({ length: 8 }, (_, i) => grant({ createdAt: 10_000 + i }));
        await Promise.all(many.map((g) => store.add(g)));
        const again = await e.reopen();
        expect((await again.list()).map((g) => g.grantId)).toEqual(many.map((g) => g.grantId));
      }));
  });
}
