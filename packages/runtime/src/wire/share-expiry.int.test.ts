import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARE_EXPIRED_CLOSE_CODE } from '@strand/host';
import { ManualClock } from '@strand/test-support';
import { hostFixture, type HostFixture, type RpcTestClient } from '../testing/host-fixture.js';
import { FileShareGrantStore } from '../share-grants-file.js';

/**
 * A share connection open when its grant expires is closed at the expiry (a timer per connection
 * on the host's clock — here a manual one, so the expiry is a step, not a wait), not only refused
 * request by request.
 */
const TOKEN = 'host-token-of-sixteen-or-more';
const EPOCH = 1_800_000_000_000;

let f: HostFixture;
let grantsDir: string;
const clock = new ManualClock();

beforeAll(async () => {
  grantsDir = mkdtempSync(path.join(tmpdir(), 'strand-share-expiry-'));
  f = await hostFixture({
    token: TOKEN,
    requireToken: true,
    now: () => EPOCH + clock.now(),
    shareTimers: clock,
    services: { shares: await FileShareGrantStore.open(grantsDir) },
  });
  await f.storedSession('alpha', 1);
});

afterAll(async () => {
  await f.close();
  rmSync(grantsDir, { recursive: true, force: true });
});

async function viewer(expiresInMs: number | null): Promise<RpcTestClient> {
  const made = await (
    await f.connect({ token: TOKEN })
  ).call<{ shareToken: string }>('share.create', { id: 'alpha', createdBy: 'web', expiresInMs });
  const client = await f.connect({ token: made.shareToken });
  await client.call('session.follow', { id: 'alpha' });
  return client;
}

const closeOf = (client: RpcTestClient): Promise<{ code: number; reason: string }> =>
  new Promise((resolve) =>
    client.ws.once('close', (code, reason) => resolve({ code, reason: reason.toString('utf8') })),
  );

describe('a share connection open at its grant expiry', () => {
  it('is closed at the expiry with HOST_SHARE_EXPIRED, and served until then', async () => {
    const client = await viewer(60_000);
    const closed = closeOf(client);
    await clock.whenArmed(1);
    clock.advance(59_999);
    expect(client.ws.readyState).toBe(client.ws.OPEN);
    await client.call('session.page', { id: 'alpha', limit: 1 });
    clock.advance(1);
    expect(await closed).toEqual({ code: SHARE_EXPIRED_CLOSE_CODE, reason: 'HOST_SHARE_EXPIRED' });
    expect(clock.pending).toBe(0);
  });

  it('arms nothing for a link that never expires, and disarms when the connection ends first', async () => {
    const before = clock.pending;
    const forever = await viewer(null);
    expect(clock.pending).toBe(before);
    const expiring = await viewer(3_600_000);
    await clock.whenArmed(before + 1);
    const closed = closeOf(expiring);
    expiring.ws.close();
    await closed;
    await expect.poll(() => clock.pending).toBe(before);
    forever.close();
  });
});
