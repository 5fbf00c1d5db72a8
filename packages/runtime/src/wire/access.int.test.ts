import { afterEach, describe, expect, it } from 'vitest';
import { rawGet, type HttpAnswer as Answer } from '@strand/test-support';
import type { Refusal } from '@strand/host';
import { hostFixture, upgrade, type HostFixture } from '../testing/host-fixture.js';
import { HostConfigError, startHost } from '@strand/host';

let f: HostFixture | undefined;
afterEach(async () => {
  await f?.close();
  f = undefined;
});

const TOKEN = 'a-long-enough-secret-token';

function errorCode(answer: Answer): string | undefined {
  return (JSON.parse(answer.body) as { error?: { data?: { code?: string } } }).error?.data?.code;
}

describe('Origin on the /rpc upgrade', () => {
  it("accepts no Origin and the host's own origins; refuses every other with 403 HOST_ORIGIN_FORBIDDEN", async () => {
    const refusals: Refusal[] = [];
    f = await hostFixture({ onRefused: (r) => refusals.push(r) });
    const { port, rpcUrl } = f.host;
    expect((await upgrade(rpcUrl, {})).status).toBe(101);
    for (const origin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`])
      expect((await upgrade(rpcUrl, { origin })).status, origin).toBe(101);
    for (const origin of [
      'http://evil.example',
      `http://evil.example:${port}`,
      `http://127.0.0.1:${port + 1}`,
      `https://127.0.0.1:${port}`,
      'null',
      'not an origin',
    ]) {
      const answer = await upgrade(rpcUrl, { origin });
      expect(answer.status, origin).toBe(403);
      expect(errorCode(answer)).toBe('HOST_ORIGIN_FORBIDDEN');
    }
    expect(refusals).toHaveLength(6);
    expect(refusals[0]).toMatchObject({ status: 403, code: 'HOST_ORIGIN_FORBIDDEN', upgrade: true });
    expect(f.host.connections).toBe(0);
  });

  it('accepts an --allow-origin origin, and refuses a malformed one at start', async () => {
    f = await hostFixture({ allowOrigins: ['http://app.example:8080', 'https://ui.example/'] });
    for (const origin of ['http://app.example:8080', 'https://ui.example'])
      expect((await upgrade(f.host.rpcUrl, { origin })).status, origin).toBe(101);
    expect((await upgrade(f.host.rpcUrl, { origin: 'http://app.example:8081' })).status).toBe(403);
    for (const bad of ['app.example', 'http://app.example/path', 'ftp://x.example', '*'])
      await expect(startHost({ services: f.services, allowOrigins: [bad] }), bad).rejects.toMatchObject({
        code: 'HOST_ORIGIN_INVALID',
      });
  });
});

describe('Host on a loopback bind (DNS rebinding)', () => {
  it('refuses a Host that is not a loopback name with our port, on the upgrade and on pages', async () => {
    f = await hostFixture();
    const { port, rpcUrl, url } = f.host;
    for (const host of [
      `evil.example:${port}`,
      'evil.example',
      `localhost:${port + 1}`,
      `127.0.0.1:${port}@evil.example`,
    ]) {
      const answer = await upgrade(rpcUrl, { host });
      expect(answer.status, host).toBe(403);
      expect(errorCode(answer)).toBe('HOST_ORIGIN_FORBIDDEN');
      expect((await rawGet(`${url}/health`, { host })).status, host).toBe(403);
    }
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, `LOCALHOST:${port}`])
      expect((await upgrade(rpcUrl, { host })).status, host).toBe(101);
  });
});

describe('the token off loopback (requireToken on loopback exercises it)', () => {
  it('refuses requireToken without a token at start', async () => {
    f = await hostFixture();
    await expect(startHost({ services: f.services, requireToken: true })).rejects.toBeInstanceOf(
      HostConfigError,
    );
    await expect(startHost({ services: f.services, requireToken: true })).rejects.toMatchObject({
      code: 'HOST_TOKEN_REQUIRED',
    });
  });

  it('a page load with ?token= moves it into an HttpOnly SameSite=Strict cookie and redirects without it', async () => {
    f = await hostFixture({ token: TOKEN, requireToken: true });
    const answer = await rawGet(`${f.host.url}/sessions?x=1&token=${TOKEN}`);
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe('/sessions?x=1');
    const cookie = String(answer.headers['set-cookie']);
    expect(cookie).toMatch(new RegExp(`^strand_token_${f.host.port}=${TOKEN};`));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\//);
    const sent = `strand_token_${f.host.port}=${TOKEN}`;
    expect((await upgrade(f.host.rpcUrl, { cookie: sent })).status).toBe(101);
    expect((await upgrade(f.host.rpcUrl, {})).status).toBe(401);
    expect(JSON.parse((await rawGet(`${f.host.url}/auth`, { cookie: sent })).body)).toEqual({
      required: true,
      status: 'ok',
    });
    expect(JSON.parse((await rawGet(`${f.host.url}/auth`)).body)).toEqual({
      required: true,
      status: 'missing',
    });
    expect(
      JSON.parse((await rawGet(`${f.host.url}/auth`, { cookie: `strand_token_${f.host.port}=nope` })).body),
    ).toEqual({
      required: true,
      status: 'invalid',
    });
  });

  it('a host without a token says so on /auth and does not redirect ?token=', async () => {
    f = await hostFixture();
    expect(JSON.parse((await rawGet(`${f.host.url}/auth`)).body)).toEqual({ required: false, status: 'ok' });
    expect((await rawGet(`${f.host.url}/?token=x`)).status).toBe(404); // no web UI in this fixture
  });

  it('rate-limits failed attempts per address: past the limit even the right token gets 429', async () => {
    const refusals: Refusal[] = [];
    f = await hostFixture({
      token: TOKEN,
      requireToken: true,
      limits: { maxAuthFailures: 3 },
      onRefused: (r) => refusals.push(r),
    });
    // Missing tokens are not attempts: they never use up the budget.
    for (let i = 0; i < 5; i++) expect((await upgrade(f.host.rpcUrl, {})).status).toBe(401);
    expect((await upgrade(f.host.rpcUrl, { authorization: `Bearer ${TOKEN}` })).status).toBe(101);
    for (let i = 0; i < 3; i++)
      expect((await upgrade(f.host.rpcUrl, { authorization: `Bearer wrong-${i}` })).status).toBe(401);
    const limited = await upgrade(f.host.rpcUrl, { authorization: `Bearer ${TOKEN}` });
    expect(limited.status).toBe(429);
    expect(errorCode(limited)).toBe('HOST_AUTH_RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(
      JSON.parse(
        (await rawGet(`${f.host.url}/auth`, { cookie: `strand_token_${f.host.port}=${TOKEN}` })).body,
      ),
    ).toMatchObject({ required: true, status: 'rate-limited' });
    expect(refusals.map((r) => r.status)).toEqual([401, 401, 401, 401, 401, 401, 401, 401, 429]);
  });
});
