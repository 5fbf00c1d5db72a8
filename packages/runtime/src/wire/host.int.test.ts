import { afterEach, describe, expect, it } from 'vitest';
import { hostFixture, turn, type HostFixture } from '../testing/host-fixture.js';
import { startHost, HostConfigError } from '@strand/host';
import type { FollowSnapshot, SessionListRow } from '@strand/protocol';
import { SessionId } from '@strand/session';

let f: HostFixture;
afterEach(async () => {
  await f?.close();
});

describe('session.follow', () => {
  it('delivers the opening snapshot before any live frame, then contiguous event frames and {key, value, seq} projection frames', async () => {
    f = await hostFixture();
    const live = await f.liveSession('live-1', 3);
    const client = await f.connect();
    const pending = client.request('session.follow', { id: 'live-1', window: 5 });
    // Appends racing the follow must arrive after the snapshot, with no gap and no duplicate.
    const appending = (async () => {
      for (let n = 3; n < 6; n++) await live.append(turn(n));
      await live.append({ type: 'session/title', data: { title: 'Renamed' } });
    })();
    const reply = await pending;
    await appending;
    const snapshot = reply.result as FollowSnapshot;
    await client.waitFor(
      (m) => m.method === 'follow.projection' && (m.params as { key: string }).key === 'title',
    );
    await client.waitFor(
      (m) =>
        m.method === 'follow.events' &&
        (m.params as { events: { seq: number }[] }).events.at(-1)!.seq === live.events.length - 1,
    );
    const replyIndex = client.frames.findIndex((m) => m.id === reply.id);
    const firstFrame = client.frames.findIndex(
      (m) =>
        m.method?.startsWith('follow.') && (m.params as { followId: string }).followId === snapshot.followId,
    );
    expect(replyIndex).toBeLessThan(firstFrame);
    expect(snapshot.events.length).toBeLessThanOrEqual(5);
    expect(snapshot.events.at(-1)?.seq).toBe(snapshot.cursor - 1); // the window is the tail
    expect(Object.keys(snapshot.baseline.values).sort()).toEqual(f.services.registry.keys().sort());
    expect(snapshot.baseline.asOfSeq).toBe(snapshot.cursor - 1);
    const seqs = [...snapshot.events.map((e) => e.seq)];
    for (const m of client.frames)
      if (m.method === 'follow.events')
        seqs.push(...(m.params as { events: { seq: number }[] }).events.map((e) => e.seq));
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => seqs[0]! + i));
    expect(seqs.at(-1)).toBe(live.events.length - 1);
    const title = client.frames.find(
      (m) => m.method === 'follow.projection' && (m.params as { key: string }).key === 'title',
    )!;
    expect(title.params).toMatchObject({ key: 'title', value: 'Renamed', seq: live.events.length - 1 });
  });

  it('a read-only follow of a cold session sends its snapshot and never activates anything', async () => {
    f = await hostFixture();
    await f.storedSession('cold-1', 4);
    const client = await f.connect();
    const snapshot = await client.call<FollowSnapshot>('session.follow', { id: 'cold-1' });
    expect(snapshot.live).toBe(false);
    expect(snapshot.baseline.values).toMatchObject({ title: 'Title of cold-1' });
    expect(f.services.store.size).toBe(0);
  });

  it('a follower that falls too far behind gets follow.resync while the host memory stays bounded and others keep receiving', async () => {
    f = await hostFixture({ limits: { maxQueuedBytes: 64 * 1024 } });
    const live = await f.liveSession('busy', 1);
    const slow = await f.connect();
    const fast = await f.connect();
    await slow.call('session.follow', { id: 'busy' });
    const fastSnapshot = await fast.call<FollowSnapshot>('session.follow', { id: 'busy' });
    // Stop reading on the slow client's socket: its bytes pile up in the host's send buffer.
    (slow.ws as unknown as { _socket: { pause(): void } })._socket.pause();
    const big = 'x'.repeat(20_000);
    for (let i = 0; i < 400; i++) await live.append({ type: 'x/blob', data: { big, i } });
    await fast.waitFor(
      (m) =>
        m.method === 'follow.events' &&
        (m.params as { events: { seq: number }[] }).events.at(-1)!.seq === live.events.length - 1,
    );
    expect(f.host.hub.followerCount).toBe(1); // the slow follow was dropped, the fast one remains
    (slow.ws as unknown as { _socket: { resume(): void } })._socket.resume();
    const resync = await slow.waitFor((m) => m.method === 'follow.resync');
    expect(resync.params).toMatchObject({ reason: 'slow-consumer' });
    expect(fastSnapshot.followId).toBeDefined();
  });
});

describe('session.list and session.page', () => {
  it('lists sessions newest first with hints: live from the watermark cache, cold from cache rows or a bounded small-log observation', async () => {
    f = await hostFixture();
    await f.storedSession('old', 2, { createdAt: 500 });
    await f.liveSession('new', 1);
    const client = await f.connect();
    const { sessions } = await client.call<{ sessions: SessionListRow[] }>('session.list');
    expect(sessions.map((s) => s.id)).toEqual(['new', 'old']);
    const byId = new Map(sessions.map((s) => [s.id, s]));
    expect(byId.get('new')).toMatchObject({ live: true, hints: { values: { title: 'Title of new' } } });
    expect(byId.get('old')).toMatchObject({
      live: false,
      hints: { values: { title: 'Title of old', listMetadata: { blank: false } } },
    });
  });

  it('a cold session whose hints are not folded yet stays visible with unknown hints', async () => {
    f = await hostFixture({ limits: { smallLogBytes: 10 } });
    await f.storedSession('big', 5, {}, 'header-only');
    const client = await f.connect();
    const { sessions } = await client.call<{ sessions: SessionListRow[] }>('session.list');
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.hints).toBeUndefined();
  });

  it("pages by last activity under a filter: nextCursor continues the same filter, another filter's or an altered cursor is HOST_LIST_CURSOR_INVALID", async () => {
    f = await hostFixture();
    // No turns, so no prompt: each row's activity is its `createdAt`.
    await f.storedSession('p1', 0, { createdAt: 100, cwd: '/a' });
    await f.storedSession('p2', 0, { createdAt: 300, cwd: '/a' });
    await f.storedSession('p3', 0, { createdAt: 200, cwd: '/b' });
    await f.storedSession('c1', 0, {
      createdAt: 400,
      cwd: '/a',
      origin: 'subagent',
      parentSession: SessionId('p1'),
    });
    const client = await f.connect();
    type Page = { sessions: SessionListRow[]; nextCursor?: string };
    const list = (params: object): Promise<Page> => client.call<Page>('session.list', params);
    const ids = (page: Page): string[] => page.sessions.map((row) => row.id);

    const whole = await list({});
    expect(ids(whole)).toEqual(['c1', 'p2', 'p3', 'p1']);
    expect(whole.nextCursor).toBeUndefined();

    const top1 = await list({ parent: null, limit: 1 });
    expect(ids(top1)).toEqual(['p2']);
    const top2 = await list({ parent: null, limit: 2, cursor: top1.nextCursor });
    expect(ids(top2)).toEqual(['p3', 'p1']);
    expect(top2.nextCursor).toBeUndefined();
    expect(ids(await list({ parent: 'p1' }))).toEqual(['c1']);
    expect(ids(await list({ cwd: '/a', titlePrefix: 'Title of p' }))).toEqual(['p2', 'p1']);
    expect(ids(await list({ harness: 'strand', busy: false, limit: 3 }))).toEqual(['c1', 'p2', 'p3']);

    // The deprecated whole-list call hands out a cursor when its limit cut rows off.
    const first = await list({ limit: 2 });
    expect(ids(first)).toEqual(['c1', 'p2']);
    expect(ids(await list({ cursor: first.nextCursor }))).toEqual(['p3', 'p1']);

    const refused = await client.request('session.list', { cwd: '/a', cursor: top1.nextCursor });
    expect(refused.error).toMatchObject({
      code: -33805,
      data: { code: 'HOST_LIST_CURSOR_INVALID', problem: 'other-filter' },
    });
    const altered = `${top1.nextCursor!.slice(0, 3)}${top1.nextCursor![3] === 'A' ? 'B' : 'A'}${top1.nextCursor!.slice(4)}`;
    expect((await client.request('session.list', { parent: null, cursor: altered })).error?.data.code).toBe(
      'HOST_LIST_CURSOR_INVALID',
    );
  });

  it('validates session.list params: a page is at most 1,000 rows, the deprecated whole list up to 100,000', async () => {
    f = await hostFixture();
    await f.storedSession('only', 0);
    const client = await f.connect();
    const code = async (params: object): Promise<string | undefined> =>
      (await client.request('session.list', params)).error?.data.code;
    expect(await code({ cwd: '/a', limit: 1_001 })).toBe('RPC_INVALID_PARAMS');
    expect(await code({ cursor: 'x', limit: 1_001 })).toBe('RPC_INVALID_PARAMS');
    expect(await code({ limit: 100_001 })).toBe('RPC_INVALID_PARAMS');
    expect(await code({ parent: 5 })).toBe('RPC_INVALID_PARAMS');
    expect(await code({ busy: 'yes' })).toBe('RPC_INVALID_PARAMS');
    expect(await code({ harness: 'Not A Harness' })).toBe('RPC_INVALID_PARAMS');
    expect(await code({ cursor: '' })).toBe('RPC_INVALID_PARAMS');
    expect(await code({ cursor: 'not-a-cursor' })).toBe('HOST_LIST_CURSOR_INVALID');
    expect(await code({ limit: 1_001 })).toBeUndefined();
    expect(await code({ cwd: '/a', limit: 1_000 })).toBeUndefined();
  });

  it('pages older history and repairs gaps by seq', async () => {
    f = await hostFixture();
    const s = await f.storedSession('paged', 10);
    const client = await f.connect();
    const older = await client.call<{ firstSeq: number; events: { seq: number }[] }>('session.page', {
      id: 'paged',
      beforeSeq: 20,
      limit: 5,
    });
    expect(older.events.map((e) => e.seq)).toEqual([15, 16, 17, 18, 19]);
    const gap = await client.call<{ events: { seq: number }[] }>('session.page', {
      id: 'paged',
      fromSeq: 3,
      toSeq: 6,
    });
    expect(gap.events.map((e) => e.seq)).toEqual([3, 4, 5]);
    expect(gap.events).toEqual(JSON.parse(JSON.stringify(s.events.slice(3, 6))));
  });
});

describe('bad requests', () => {
  it('malformed, unknown, invalid, oversized, binary and path-like requests get typed errors and the host keeps serving everyone', async () => {
    f = await hostFixture({ limits: { maxFrameBytes: 4096 } });
    await f.storedSession('ok', 1);
    const a = await f.connect();
    const b = await f.connect();
    expect((await a.raw('{not json')).error?.data.code).toBe('RPC_PARSE_ERROR');
    expect(
      (await a.raw(JSON.stringify({ jsonrpc: '2.0', id: 'x', method: 'nope' }), 'x')).error?.data.code,
    ).toBe('RPC_METHOD_NOT_FOUND');
    expect((await a.request('session.follow', { id: 42 })).error?.data.code).toBe('RPC_INVALID_PARAMS');
    expect((await a.request('session.list', { unexpected: true })).error?.data.code).toBe(
      'RPC_INVALID_PARAMS',
    );
    expect(
      (
        await a.raw(
          JSON.stringify({
            jsonrpc: '2.0',
            id: 9,
            method: 'session.list',
            params: { pad: 'x'.repeat(10_000) },
          }),
          9,
        )
      ).error?.data.code,
    ).toBe('HOST_FRAME_TOO_LARGE');
    expect((await a.request('session.follow', { id: '../../../etc/passwd' })).error?.data.code).toBe(
      'SESSION_QUERY_NOT_FOUND',
    );
    expect((await a.request('session.follow', { id: 'bad\u0000id' })).error?.data.code).toBe(
      'SESSION_ID_INVALID',
    );
    // What this host was not given is its own refusal, not another package's code.
    expect((await a.request('session.prompt', { id: 'ok', text: 'hi' })).error?.data.code).toBe(
      'HOST_AGENTS_UNAVAILABLE',
    );
    expect((await a.request('session.search', { query: 'hello' })).error).toMatchObject({
      code: -33803,
      data: { code: 'HOST_SEARCH_UNAVAILABLE' },
    });
    expect((await a.request('subagent.list', { id: 'ok' })).error?.data.code).toBe(
      'HOST_SUBAGENTS_UNAVAILABLE',
    );
    expect((await b.call<{ sessions: unknown[] }>('session.list')).sessions).toHaveLength(1);
    expect((await a.call<{ sessions: unknown[] }>('session.list')).sessions).toHaveLength(1);
  });

  it('refuses to bind a non-loopback interface without a token, and checks the token on connect', async () => {
    f = await hostFixture({ token: 'a-long-enough-secret-token' });
    await expect(startHost({ services: f.services, host: '0.0.0.0' })).rejects.toBeInstanceOf(
      HostConfigError,
    );
    await expect(f.connect()).rejects.toThrow(/401/);
    await expect(f.connect({ token: 'wrong-token-wrong-token!!' })).rejects.toThrow(/401/);
    const client = await f.connect({ token: 'a-long-enough-secret-token' });
    expect(await client.call('session.list')).toEqual({ sessions: [] });
  });
});

describe('commands', () => {
  it('rename on a cold ordinary session appends session/title through persistence without leaving it live', async () => {
    f = await hostFixture();
    const s = await f.storedSession('cold-cmd', 1);
    const client = await f.connect();
    const { seq } = await client.call<{ seq: number }>('session.rename', {
      id: 'cold-cmd',
      title: 'New name',
    });
    expect(seq).toBe(s.events.length);
    expect(f.services.store.size).toBe(0);
    const log = await f.services.persistence.inspect(s.id);
    expect(log.events.at(-1)).toMatchObject({ type: 'session/title', data: { title: 'New name' } });
  });

  it('commands on a subagent child are refused; reads of it are allowed', async () => {
    f = await hostFixture();
    await f.storedSession('parent', 1);
    await f.storedSession('child', 1, {
      origin: 'subagent',
      parentSession: 'parent' as never,
      delegationDepth: 1,
    });
    const client = await f.connect();
    expect((await client.request('session.rename', { id: 'child', title: 'x' })).error?.data.code).toBe(
      'HOST_CHILD_SESSION_READ_ONLY',
    );
    expect(
      (await client.request('session.selectModel', { id: 'child', provider: 'p', model: 'm' })).error?.data
        .code,
    ).toBe('HOST_CHILD_SESSION_READ_ONLY');
    const snapshot = await client.call<FollowSnapshot>('session.follow', { id: 'child', interactive: true });
    expect(snapshot.header.origin).toBe('subagent');
  });

  it('fork creates an ordinary session seeded up to the end of the turn containing atSeq, without activating the source', async () => {
    f = await hostFixture();
    const source = await f.storedSession('src', 3);
    const client = await f.connect();
    const { id } = await client.call<{ id: string }>('session.fork', { id: 'src', atSeq: 6 });
    const log = await f.services.persistence.inspect(id as never);
    expect(log.header).toMatchObject({ isSeeded: true, forkedFrom: 'src' });
    expect(log.inheritedEventCount).toBe(9); // title + two whole turns of 4
    expect(log.events).toEqual(source.events.slice(0, 9));
    expect(f.services.store.size).toBe(0);
  });
});
