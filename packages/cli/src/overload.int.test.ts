/**
 * Overload is answered (the CLI package is where the client and the real host meet): past the
 * host's in-flight limit every refused call still settles, rejected with the typed code, because
 * the refusal carries the request's id.
 */
import { WebSocket } from 'ws';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StrandConnection } from '@strand/client';
import { StrandRpcError } from '@strand/protocol';
import { startTestHost, type TestHost } from '@strand/runtime/testing';

let testHost: TestHost | undefined;
let connection: StrandConnection | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  connection?.close();
  connection = undefined;
  await testHost?.close();
  testHost = undefined;
});

describe('overload through @strand/client', () => {
  it('100 concurrent session.list calls on one connection all settle: served, or rejected HOST_TOO_MANY_REQUESTS', async () => {
    testHost = await startTestHost({ prefix: 'strand-overload', runtime: { syncSearch: false } });
    const problems: string[] = [];
    connection = new StrandConnection({
      url: testHost.host.rpcUrl,
      WebSocket,
      onProtocolError: (reason) => problems.push(reason),
    });
    // Each page is held until every call is in flight or refused: the limit is reached however
    // fast the list index answers (a page returned before the next frame arrives frees its slot).
    const index = testHost.runtime.services.cache?.listIndex;
    expect(index).toBeDefined();
    const page = index!.page.bind(index);
    let entered = 0;
    let refusedSoFar = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const check = (): void => {
      if (entered + refusedSoFar >= 100) release();
    };
    vi.spyOn(index!, 'page').mockImplementation(async (...args) => {
      entered++;
      check();
      await gate;
      return page(...args);
    });
    const calls = Array.from({ length: 100 }, () =>
      connection!.call('session.list', {}).catch((error: unknown) => {
        refusedSoFar++;
        check();
        throw error;
      }),
    );
    // No clock: every call must settle on its own; one left pending hangs the test.
    const settled = await Promise.allSettled(calls);
    const served = settled.filter((s) => s.status === 'fulfilled');
    const refused = settled.filter((s) => s.status === 'rejected').map((s) => s.reason as unknown);
    for (const reason of refused) {
      expect(reason).toBeInstanceOf(StrandRpcError);
      expect(reason).toMatchObject({ code: 'HOST_TOO_MANY_REQUESTS', rpcCode: -32002 });
    }
    expect(served.length + refused.length).toBe(100);
    // The limit (64 per connection) was reached: the refusals were exercised, not dodged.
    expect(served.length).toBe(64);
    expect(refused.length).toBeGreaterThan(0);
    expect(problems).toEqual([]);
    // The connection stays usable after the refusals.
    expect(connection.state).toBe('open');
    await expect(connection.call('session.list', {})).resolves.toEqual({ sessions: [] });
  });
});
