import { describe, expect, it } from 'vitest';
import { checkAccess, describeProblem, dropTokenFromAddressBar, readAccess } from './access.js';

const answer = (status: number, body: unknown) => () =>
  Promise.resolve(new Response(JSON.stringify(body), { status }));

describe('checkAccess', () => {
  it("reports /auth's missing, invalid and rate-limited answers as problems", async () => {
    expect(await checkAccess(answer(200, { required: true, status: 'missing' }))).toEqual({
      kind: 'missing',
    });
    expect(await checkAccess(answer(200, { required: true, status: 'invalid' }))).toEqual({
      kind: 'invalid',
    });
    expect(
      await checkAccess(answer(200, { required: true, status: 'rate-limited', retryAfterMs: 1500 })),
    ).toEqual({ kind: 'rate-limited', retryAfterMs: 1500 });
  });

  it('lets the page connect when the host says ok, or cannot say (404, not JSON, unreachable)', async () => {
    expect(await checkAccess(answer(200, { required: true, status: 'ok' }))).toBeUndefined();
    expect(await checkAccess(answer(404, 'no'))).toBeUndefined();
    expect(await checkAccess(() => Promise.resolve(new Response('<html>', { status: 200 })))).toBeUndefined();
    expect(await checkAccess(() => Promise.reject(new TypeError('failed to fetch')))).toBeUndefined();
  });
});

describe('readAccess', () => {
  it('reads a share answer as the grant it opens, and dead links as their problems', async () => {
    const share = { sessionId: 's-1', descendants: true, expiresAt: '2026-12-01T00:00:00.000Z' };
    expect(await readAccess(answer(200, { required: true, status: 'share', share }))).toEqual({
      kind: 'share',
      share,
    });
    expect(await readAccess(answer(200, { status: 'share', share: { ...share, expiresAt: null } }))).toEqual({
      kind: 'share',
      share: { ...share, expiresAt: null },
    });
    for (const status of ['expired', 'revoked', 'unavailable'] as const)
      expect(await readAccess(answer(200, { required: true, status, code: 'X' }))).toEqual({
        kind: 'problem',
        problem: { kind: status },
      });
    expect(await checkAccess(answer(200, { status: 'revoked' }))).toEqual({ kind: 'revoked' });
    // A live link is not a problem for the guard.
    expect(await checkAccess(answer(200, { status: 'share', share }))).toBeUndefined();
  });

  it('refuses a share answer whose grant is malformed rather than opening the full UI', async () => {
    for (const bad of [
      undefined,
      null,
      { sessionId: 1, descendants: false, expiresAt: null },
      { sessionId: 's' },
    ])
      expect(await readAccess(answer(200, { status: 'share', share: bad }))).toEqual({
        kind: 'problem',
        problem: { kind: 'invalid' },
      });
    expect(await readAccess(answer(200, { status: 'ok' }))).toEqual({ kind: 'full' });
  });
});

describe('dropTokenFromAddressBar', () => {
  it('replaces the URL without token, keeping the rest; leaves a token-less URL alone', () => {
    const calls: string[] = [];
    const history = {
      state: { n: 1 },
      replaceState: (_s: unknown, _t: string, url?: string | URL | null) => calls.push(String(url)),
    };
    dropTokenFromAddressBar({ href: 'http://127.0.0.1:4400/s?x=1&token=secret#e' }, history);
    dropTokenFromAddressBar({ href: 'http://127.0.0.1:4400/s?x=1' }, history);
    expect(calls).toEqual(['/s?x=1#e']);
  });
});

describe('describeProblem', () => {
  it('says what to do for each problem', () => {
    expect(describeProblem({ kind: 'missing' }).detail).toMatch(/\?token=/);
    expect(describeProblem({ kind: 'rate-limited', retryAfterMs: 30_500 }).detail).toMatch(/31 s/);
    expect(describeProblem({ kind: 'expired' }).title).toBe('This link has expired');
    expect(describeProblem({ kind: 'revoked' }).title).toBe('This link was revoked');
    expect(describeProblem({ kind: 'revoked' }).detail).toMatch(/new link/);
    expect(describeProblem({ kind: 'unavailable' }).detail).toMatch(/retry in a moment/);
  });
});
