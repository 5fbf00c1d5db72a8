import { afterEach, describe, expect, it } from 'vitest';
import type { FollowDraftParams, FollowSnapshot, WireEvent } from '@strand/protocol';
import { SessionId } from '@strand/session';
import {
  eventually,
  FaultyPersistence,
  ManualClock,
  mockChatServer,
  type MockChatServer,
  pacedAnswer,
} from '@strand/test-support';
import type { RpcTestClient } from '../testing/host-fixture.js';
import { startTestHost, type TestHost } from '../testing/test-host.js';
import type { StrandRuntime } from '../strand-runtime.js';

/**
 * `follow.draft` over the wire: a real host, a real agent, the OpenAI-compatible adapter reading a
 * real SSE stream from a local endpoint the test paces chunk by chunk, and an injected clock for
 * the host's draft pacing (no wall-clock waits decide anything).
 */
const LOCAL = { provider: 'local', model: 'tiny-1' };
let server: MockChatServer;
let t: TestHost | undefined;
let runtime: StrandRuntime | undefined;

afterEach(async () => {
  await t?.close();
  await server.close();
  t = runtime = undefined;
});

/** An endpoint whose answer goes out one chunk per `next()` (with `holdEnd`, its end too). */
async function pacedEndpoint(chunks: readonly string[], holdEnd = false): Promise<{ next(): void }> {
  server = await mockChatServer();
  const answer = pacedAnswer(chunks, { input: 5, output: 5 }, { holdEnd });
  server.handle(answer.handler);
  return answer;
}

async function start(
  clock: ManualClock,
  wrapPersistence?: ConstructorParameters<typeof FaultyPersistence>[1],
): Promise<RpcTestClient> {
  t = await startTestHost({
    prefix: 'strand-drafts',
    runtime: {
      models: [{ ...LOCAL, baseUrl: server.baseUrl }],
      defaultModel: LOCAL,
      syncSearch: false,
      ...(wrapPersistence === undefined
        ? {}
        : { wrapPersistence: (inner) => new FaultyPersistence(inner, wrapPersistence) }),
    },
    host: { draftPacing: { intervalMs: 50, clock } },
  });
  runtime = t.runtime;
  return connect();
}

const connect = (): Promise<RpcTestClient> => t!.connect();

/** The texts the agent reported so far (what the host was offered, before pacing). */
function agentDrafts(): string[] {
  const texts: string[] = [];
  runtime!.agents.onChange((change) => change.kind === 'draft' && texts.push(change.text));
  return texts;
}

const draftsOf = (client: RpcTestClient, followId: string): FollowDraftParams[] =>
  client.frames
    .filter((m) => m.method === 'follow.draft')
    .map((m) => m.params as FollowDraftParams)
    .filter((d) => d.followId === followId);

/** Every frame the host sent before this reply is already recorded (one socket, in order). */
const roundTrip = (client: RpcTestClient): Promise<unknown> => client.call('catalog.models');

describe('follow.draft', () => {
  it('streams the step text after its durable step/start, paced by the clock, and the message settles it', async () => {
    // The stream's end is held too: the step's message must not be delivered before the draft of
    // the last chunk is seen pending.
    const endpoint = await pacedEndpoint(['Hel', 'lo, ', 'world', '!'], true);
    const clock = new ManualClock();
    const client = await start(clock);
    const offered = agentDrafts();
    const { id } = await client.call<{ id: string }>('session.create', {});
    const { followId } = await client.call<FollowSnapshot>('session.follow', { id });
    await client.call('session.prompt', { id, text: 'say hello' });

    endpoint.next();
    const first = (await client.waitFor((m) => m.method === 'follow.draft')).params as FollowDraftParams;
    expect(first).toMatchObject({ followId, text: 'Hel' });
    // The step/start it names reached this follower first, as an ordinary (durable) event frame.
    const eventFrames = client.frames.filter((m) => m.method === 'follow.events');
    const stepStart = eventFrames
      .flatMap((m) => (m.params as { events: WireEvent[] }).events)
      .find((e) => e.seq === first.step);
    expect(stepStart?.type).toBe('step/start');
    const draftAt = client.frames.findIndex((m) => m.method === 'follow.draft');
    const stepAt = client.frames.findIndex(
      (m) =>
        m.method === 'follow.events' &&
        (m.params as { events: WireEvent[] }).events.some((e) => e.seq === first.step),
    );
    expect(stepAt).toBeLessThan(draftAt);

    // Inside the interval drafts coalesce: the agent offered two more, the wire carries none yet.
    endpoint.next();
    endpoint.next();
    await eventually(() => offered.at(-1) === 'Hello, world');
    await roundTrip(client);
    expect(draftsOf(client, followId).map((d) => d.text)).toEqual(['Hel']);
    clock.advance(50);
    await roundTrip(client);
    expect(draftsOf(client, followId).map((d) => d.text)).toEqual(['Hel', 'Hello, world']);

    // A draft still pending when the step's message is delivered is dropped, never sent after it.
    endpoint.next();
    await eventually(() => offered.at(-1) === 'Hello, world!');
    expect(clock.pending).toBe(1);
    endpoint.next(); // the stream ends: the step's message is delivered
    await runtime!.agents.whenSettled();
    clock.advance(1000);
    await roundTrip(client);
    const drafts = draftsOf(client, followId);
    expect(drafts.map((d) => d.text)).toEqual(['Hel', 'Hello, world']);
    expect(new Set(drafts.map((d) => d.step))).toEqual(new Set([first.step]));

    // Never in the log: it holds the final message once and nothing of the drafts.
    const page = await client.call<{ events: WireEvent[] }>('session.page', { id, fromSeq: 0, limit: 100 });
    const messages = page.events.filter((e) => e.type === 'assistant/message');
    expect(messages.map((e) => (e.data as { content: string }).content)).toEqual(['Hello, world!']);
    expect(JSON.stringify(page.events)).not.toContain('"Hello, world"');
    expect(page.events.map((e) => e.type)).not.toContain('follow/draft');
  });

  it('a session that stops mid-step aborts its turn at once and sends no draft after `stopped`; the next prompt is accepted', async () => {
    const endpoint = await pacedEndpoint(['Unsaved ', 'text ', 'that ', 'goes on'], true);
    const clock = new ManualClock();
    let diskBroken = false;
    const client = await start(clock, () => (diskBroken ? 'fail' : undefined));
    const offered = agentDrafts();
    const { id } = await client.call<{ id: string }>('session.create', {});
    const { followId } = await client.call<FollowSnapshot>('session.follow', { id });
    await client.call('session.prompt', { id, text: 'write on' });
    endpoint.next();
    await client.waitFor((m) => m.method === 'follow.draft');

    // The log stops accepting writes while the model streams; a rename is the write that finds out.
    diskBroken = true;
    const renamed = await client.request('session.rename', { id, title: 'Renamed' });
    expect(renamed.error?.data.code).toBe('SESSION_WRITE_FAILED');
    await client.waitFor(
      (m) => m.method === 'follow.state' && (m.params as { stopped?: unknown }).stopped !== undefined,
    );
    const stoppedAt = client.frames.findIndex(
      (m) => m.method === 'follow.state' && (m.params as { stopped?: unknown }).stopped !== undefined,
    );
    // The rest of the answer is sent: a turn still running would read it and draft it.
    endpoint.next();
    endpoint.next();
    endpoint.next();
    endpoint.next();
    await runtime!.agents.whenSettled();
    clock.advance(1000);
    await roundTrip(client);
    expect(offered).toEqual(['Unsaved ']);
    expect(client.frames.slice(stoppedAt).filter((m) => m.method === 'follow.draft')).toEqual([]);
    expect(draftsOf(client, followId).map((d) => d.text)).toEqual(['Unsaved ']);
    expect(runtime!.services.store.has(SessionId(id))).toBe(false);

    // Once the cause is fixed, the next prompt reopens the session from disk and is accepted.
    diskBroken = false;
    await expect(client.call('session.prompt', { id, text: 'again' })).resolves.toEqual({ accepted: true });
  });

  it('a follow that ended gets no drafts; a new follow of the running step gets the whole text so far', async () => {
    const endpoint = await pacedEndpoint(['one ', 'two ', 'three']);
    const clock = new ManualClock();
    const writer = await start(clock);
    const offered = agentDrafts();
    const { id } = await writer.call<{ id: string }>('session.create', {});
    const reader = await connect();
    const old = await reader.call<FollowSnapshot>('session.follow', { id });
    await writer.call('session.prompt', { id, text: 'count' });
    endpoint.next();
    await reader.waitFor((m) => m.method === 'follow.draft');
    await reader.call('session.unfollow', { followId: old.followId });

    endpoint.next();
    await eventually(() => offered.length === 2);
    clock.advance(50);
    const again = await reader.call<FollowSnapshot>('session.follow', { id });
    endpoint.next();
    await eventually(() => offered.length === 3);
    clock.advance(50);
    await reader.waitFor(
      (m) => m.method === 'follow.draft' && (m.params as FollowDraftParams).followId === again.followId,
    );
    await roundTrip(reader);
    expect(draftsOf(reader, old.followId).map((d) => d.text)).toEqual(['one ']);
    // Accumulated text: a follower that joins mid-step needs no earlier frame.
    expect(draftsOf(reader, again.followId).at(-1)?.text).toBe('one two three');
    await runtime!.agents.whenSettled();
  });
});
