import { mkdtempSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAnswer, type HttpAnswer } from '@strand/test-support';
import { SHARE_REVOKED_CLOSE_CODE, type SearchPort } from '@strand/host';
import { METHOD_NAMES, METHODS, type MethodName, type ParamsOf, type SearchResult } from '@strand/protocol';
import { SessionId } from '@strand/session';
import type { RpcTestClient } from '../testing/host-fixture.js';
import { hostFixture, upgrade, type HostFixture } from '../testing/host-fixture.js';
import { FileShareGrantStore } from '../share-grants-file.js';

/**
 * Share links over the wire (issue 42): a real host with a token and a grants file, sessions on
 * disk — the shared one `alpha`, its subagent `alpha-kid` and grandchild `alpha-grandkid`, and an
 * unrelated tree `zulu` / `yankee` whose ids, titles and snippets must never reach a share
 * connection. The host's clock is the test's, so expiry is a step, not a wait.
 */
const TOKEN = 'host-token-of-sixteen-or-more';
const SHARED = 'alpha';
const DESCENDANTS = ['alpha-kid', 'alpha-grandkid'];
const UNRELATED = ['zulu', 'yankee'];
const SECRET = 'yankee-secret-snippet';

let f: HostFixture;
let grantsDir: string;
let now = 1_800_000_000_000;
const audit: string[] = [];

/** A search index that finds every session, snippets naming them: the host must narrow it. */
const everything: SearchPort = {
  search: (_query, options) => {
    const all = [SHARED, ...DESCENDANTS, ...UNRELATED].map(
      (id): SearchResult => ({
        sessionId: id,
        title: `Title of ${id}`,
        hits: [{ seq: 0, snippet: id === 'yankee' ? SECRET : `a hit in ${id}` }],
      }),
    );
    // Two pages, so a shared search must read past the first.
    const page = options.cursor === undefined ? all.slice(0, 3) : all.slice(3);
    return Promise.resolve({ results: page, ...(options.cursor === undefined ? { nextCursor: 'p2' } : {}) });
  },
};

beforeAll(async () => {
  grantsDir = mkdtempSync(path.join(tmpdir(), 'strand-share-wire-'));
  const shares = await FileShareGrantStore.open(grantsDir);
  const logger = {
    info: (message: string) => audit.push(message),
    warn: () => undefined,
    error: () => undefined,
    debug: () => undefined,
  };
  f = await hostFixture({
    token: TOKEN,
    requireToken: true,
    now: () => now,
    publicUrl: 'https://strand.example/',
    services: { shares, search: everything, logger },
  });
  await f.storedSession(SHARED, 1);
  await f.storedSession('alpha-kid', 1, { origin: 'subagent', parentSession: SessionId(SHARED) });
  await f.storedSession('alpha-grandkid', 1, { origin: 'subagent', parentSession: SessionId('alpha-kid') });
  await f.storedSession('zulu', 1);
  await f.storedSession('yankee', 1, { origin: 'subagent', parentSession: SessionId('zulu') });
});

afterAll(async () => {
  await f.close();
  rmSync(grantsDir, { recursive: true, force: true });
});

const admin = (): Promise<RpcTestClient> => f.connect({ token: TOKEN });

async function grant(params: { descendants?: boolean; expiresInMs?: number | null } = {}): Promise<{
  url: string;
  grantId: string;
  shareToken: string;
  expiresAt: string | null;
}> {
  return (await admin()).call('share.create', { id: SHARED, createdBy: 'cli:tester', ...params });
}

type Answer = { readonly status: number; readonly body: string; readonly closeCode?: number };

const upgradeHere = (headers: Record<string, string>): Promise<HttpAnswer> => upgrade(f.host.rpcUrl, headers);

const codeOf = (answer: HttpAnswer | Answer): string | undefined =>
  (JSON.parse(answer.body) as { error?: { data?: { code?: string } } }).error?.data?.code;

/** Params of every method naming `id` where it names a session (typed: a new method must be added here). */
const PARAMS: { readonly [M in MethodName]: (id: string) => ParamsOf<M> } = {
  'session.list': () => ({}),
  'session.listSubscribe': () => ({}),
  'session.listUnsubscribe': () => ({ subscriptionId: 'no-such-subscription' }),
  'session.search': () => ({ query: 'hit' }),
  'session.follow': (id) => ({ id, window: 5 }),
  'session.unfollow': () => ({ followId: 'no-such-follow' }),
  'session.page': (id) => ({ id, limit: 5 }),
  'session.attachment': (id) => ({ id, ref: 'no-such-ref' }),
  'session.export': (id) => ({ id, format: 'json' }),
  'session.exportTo': (id) => ({ id, harness: 'claude-code' }),
  'session.fork': (id) => ({ id, atSeq: 0 }),
  'subagent.list': (id) => ({ id, scope: 'descendants' }),
  'session.create': () => ({ cwd: '/tmp' }),
  'session.prompt': (id) => ({ id, text: 'hi' }),
  'session.cancel': (id) => ({ id }),
  'session.rename': (id) => ({ id, title: 'renamed by a viewer' }),
  'session.selectModel': (id) => ({ id, provider: 'strand', model: 'scripted' }),
  'session.selectPreset': (id) => ({ id, preset: null }),
  'catalog.models': () => ({}),
  'catalog.presets': () => ({}),
  'usage.summary': () => ({}),
  'share.create': (id) => ({ id, createdBy: 'web' }),
  'share.list': () => ({}),
  'share.revoke': () => ({ grant: 'sg_none' }),
};

const SHARE_CODES = new Set(['HOST_SHARE_READ_ONLY', 'SESSION_QUERY_NOT_FOUND']);

describe('a share connection, over every method × session × grant', () => {
  it('is allowed exactly what METHODS[m].share declares, and learns nothing of sessions outside its grant', async () => {
    const violations: string[] = [];
    for (const descendants of [false, true]) {
      const { shareToken } = await grant({ descendants });
      const viewer = await f.connect({ token: shareToken });
      const covered = new Set([SHARED, ...(descendants ? DESCENDANTS : [])]);
      for (const method of METHOD_NAMES)
        for (const target of [SHARED, ...DESCENDANTS, ...UNRELATED]) {
          const interactiveToo = method === 'session.follow' ? [false, true] : [false];
          for (const interactive of interactiveToo) {
            const params = { ...PARAMS[method](target), ...(interactive ? { interactive } : {}) };
            const reply = await viewer.request(method, params);
            const code = reply.error?.data.code;
            const where = `${method} ${target}${interactive ? ' interactive' : ''} (descendants: ${descendants})`;
            const expected = expectedCode(method, target, covered, descendants, interactive);
            if (expected === 'allowed' ? code !== undefined && SHARE_CODES.has(code) : code !== expected)
              violations.push(`${where}: expected ${expected}, got ${code ?? 'a result'}`);
            if (code === 'SESSION_QUERY_NOT_FOUND')
              expect(reply.error, where).toEqual({
                code: expect.any(Number),
                message: `session ${target} was not found`,
                data: { sessionId: target, code: 'SESSION_QUERY_NOT_FOUND' },
              });
            // The caller's own id comes back in its refusal; nothing else of the unrelated tree may.
            const text = JSON.stringify(reply)
              .replaceAll(`session ${target} `, '')
              .replaceAll(`"${target}"`, '');
            for (const secret of [...UNRELATED, SECRET])
              if (text.includes(secret)) violations.push(`${where}: the answer names ${secret}`);
            if (method === 'session.list' && reply.result !== undefined) {
              const ids = (reply.result as { sessions: { id: string }[] }).sessions.map((r) => r.id).sort();
              if (JSON.stringify(ids) !== JSON.stringify([...covered].sort()))
                violations.push(`${where}: listed ${ids.join(', ')}`);
            }
            if (method === 'session.search' && reply.result !== undefined) {
              const ids = (reply.result as { results: { sessionId: string }[] }).results.map(
                (r) => r.sessionId,
              );
              if (JSON.stringify(ids.sort()) !== JSON.stringify([...covered].sort()))
                violations.push(`${where}: found ${ids.join(', ')}`);
            }
          }
        }
    }
    expect(violations).toEqual([]);
  });
});

function expectedCode(
  method: MethodName,
  target: string,
  covered: ReadonlySet<string>,
  descendants: boolean,
  interactive: boolean,
): 'allowed' | 'HOST_SHARE_READ_ONLY' | 'SESSION_QUERY_NOT_FOUND' {
  const access = METHODS[method].share;
  switch (access) {
    case 'open':
    case 'filtered':
      return 'allowed';
    case 'refused':
      return 'HOST_SHARE_READ_ONLY';
    case 'session':
    case 'subtree':
      if (!covered.has(target)) return 'SESSION_QUERY_NOT_FOUND';
      if (access === 'subtree' && !descendants) return 'HOST_SHARE_READ_ONLY';
      return interactive ? 'HOST_SHARE_READ_ONLY' : 'allowed';
    default: {
      const exhaustive: never = access;
      throw new Error(`unhandled ${String(exhaustive)}`);
    }
  }
}

describe('share links: expiry, revocation, links, audit', () => {
  it('makes a link on the public URL; an expired one is refused at the upgrade and in /auth with HOST_SHARE_EXPIRED', async () => {
    const made = await grant({ expiresInMs: 60_000 });
    expect(made.url).toBe(`https://strand.example/share/${made.shareToken}`);
    expect(made.expiresAt).toBe(new Date(now + 60_000).toISOString());
    expect((await upgradeHere({ authorization: `Bearer ${made.shareToken}` })).status).toBe(101);
    now += 60_000;
    const refused = await upgradeHere({ authorization: `Bearer ${made.shareToken}` });
    expect([refused.status, codeOf(refused)]).toEqual([401, 'HOST_SHARE_EXPIRED']);
    const auth = await httpGet('/auth', { authorization: `Bearer ${made.shareToken}` });
    expect(JSON.parse(auth.body)).toMatchObject({ status: 'expired', code: 'HOST_SHARE_EXPIRED' });
    const listed = await (
      await admin()
    ).call<{ grants: { grantId: string; status: string }[] }>('share.list', {
      id: SHARED,
    });
    expect(listed.grants.find((g) => g.grantId === made.grantId)?.status).toBe('expired');
  });

  it('revoking closes a live follow of the link at once, and the token is then refused HOST_SHARE_REVOKED; every step is audited', async () => {
    const made = await grant();
    const viewer = await f.connect({ token: made.shareToken });
    await viewer.call('session.follow', { id: SHARED });
    const closed = new Promise<number>((resolve) => viewer.ws.once('close', (code) => resolve(code)));
    // By the token itself, as `strand share --revoke <shareToken>` may.
    expect(await (await admin()).call('share.revoke', { grant: made.shareToken })).toEqual({
      grantId: made.grantId,
      revoked: true,
    });
    expect(await closed).toBe(SHARE_REVOKED_CLOSE_CODE);
    const refused = await upgradeHere({ authorization: `Bearer ${made.shareToken}` });
    expect([refused.status, codeOf(refused)]).toEqual([401, 'HOST_SHARE_REVOKED']);
    const cookie = await httpGet('/auth', { cookie: `strand_share_${f.host.port}=${made.shareToken}` });
    expect(JSON.parse(cookie.body)).toMatchObject({ status: 'revoked', code: 'HOST_SHARE_REVOKED' });
    expect(audit).toEqual(
      expect.arrayContaining(['share: grant created', 'share: connection opened', 'share: grant revoked']),
    );
  });

  it('moves /share/<token> into its own cookie and answers /auth with what the cookie grants', async () => {
    const made = await grant({ descendants: true });
    const landing = await httpGet(`/share/${made.shareToken}`, {});
    expect(landing.status).toBe(303);
    expect(landing.headers.location).toBe('/share');
    expect(String(landing.headers['set-cookie'])).toContain(`strand_share_${f.host.port}=${made.shareToken}`);
    const auth = await httpGet('/auth', { cookie: `strand_share_${f.host.port}=${made.shareToken}` });
    expect(JSON.parse(auth.body)).toMatchObject({
      status: 'share',
      share: { sessionId: SHARED, descendants: true },
    });
    // Both cookies: the host token wins.
    const both = await httpGet('/auth', {
      cookie: `strand_share_${f.host.port}=${made.shareToken}; strand_token_${f.host.port}=${TOKEN}`,
    });
    expect(JSON.parse(both.body)).toMatchObject({ status: 'ok' });
  });
});

function httpGet(pathname: string, headers: Record<string, string>): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    get(
      new URL(pathname, f.host.url),
      { headers },
      (response) => void readAnswer(response).then(resolve, reject),
    ).on('error', reject);
  });
}

describe('share links on other hosts', () => {
  it('counts an unknown share token as a failed attempt: past the limit even a live link is 429', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'strand-share-limit-'));
    const limited = await hostFixture({
      token: TOKEN,
      requireToken: true,
      limits: { maxAuthFailures: 3 },
      services: { shares: await FileShareGrantStore.open(dir) },
    });
    try {
      const owner = await limited.connect({ token: TOKEN });
      await limited.storedSession(SHARED, 1);
      const { shareToken } = await owner.call<{ shareToken: string }>('share.create', {
        id: SHARED,
        createdBy: 'cli:tester',
      });
      const attempt = (token: string): Promise<HttpAnswer> =>
        upgrade(limited.host.rpcUrl, { authorization: `Bearer ${token}` });
      expect((await attempt(shareToken)).status).toBe(101);
      for (let i = 0; i < 3; i++) expect((await attempt(`guessed-share-token-${i}`)).status).toBe(401);
      expect((await attempt(shareToken)).status).toBe(429);
    } finally {
      await limited.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses share.create on a host that requires no token, with the reason', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'strand-share-open-'));
    const open = await hostFixture({ services: { shares: await FileShareGrantStore.open(dir) } });
    try {
      await open.storedSession(SHARED, 1);
      const reply = await (await open.connect()).request('share.create', { id: SHARED, createdBy: 'web' });
      expect(reply.error?.data.code).toBe('HOST_SHARE_NEEDS_TOKEN');
      expect(reply.error?.message).toContain('anyone who can reach this host can already read everything');
    } finally {
      await open.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
