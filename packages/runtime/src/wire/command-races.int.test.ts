import { afterEach, describe, expect, it } from 'vitest';
import type { WireEvent } from '@strand/protocol';
import { startHost } from '@strand/host';
import { SessionId } from '@strand/session';
import { answerWith, mockChatServer, type MockChatServer } from '@strand/test-support';
import { RpcTestClient } from '../testing/host-fixture.js';
import { startTestHost, type TestHost } from '../testing/test-host.js';

/**
 * Commands that race on one session, from two real clients over real WebSockets to a real host:
 * every one takes effect in some order, or is refused for a reason about the session itself
 * (`AGENT_BUSY` for a prompt while a turn runs) — never for the race (before: 12 of 24 commands
 * of such pairs were refused `AGENT_SESSION_LIVE_ELSEWHERE` or `PERSISTENCE_RESERVED`).
 */
let t: TestHost | undefined;
let server: MockChatServer | undefined;

afterEach(async () => {
  await t?.close();
  await server?.close();
  t = server = undefined;
});

/**
 * The sessions' model: a local endpoint whose every answer waits until the test lets it go, so a
 * turn a round starts is still running when the round's other command arrives, however slowly the
 * machine serves the second client (the scripted model could finish a turn in between, and a
 * second prompt then ran a turn of its own).
 */
async function heldModel(): Promise<{ hold(): void; release(): void }> {
  server = await mockChatServer();
  let held: Promise<void> = Promise.resolve();
  let release = (): void => undefined;
  const answer = answerWith('answered');
  server.handle(async (request, response) => {
    await held;
    return answer(request, response);
  });
  return {
    hold: () => {
      held = new Promise((resolve) => (release = resolve));
    },
    release: () => release(),
  };
}

type Command = readonly [method: string, params: (id: string, round: number) => Record<string, unknown>];

const PROMPT: Command = ['session.prompt', (id, round) => ({ id, text: `prompt ${round}` })];
const RENAME: Command = ['session.rename', (id, round) => ({ id, title: `title ${round}` })];
const CANCEL: Command = ['session.cancel', (id) => ({ id })];
// Seq 1 is the first turn's prompt: inside a closed turn.
const FORK: Command = ['session.fork', (id) => ({ id, atSeq: 1 })];
const SELECT: Command = ['session.selectModel', (id) => ({ id, provider: 'strand', model: 'scripted' })];

/** The refusals that are about the session, not the race: a second prompt while the first turn runs. */
const ABOUT_THE_SESSION: Record<string, readonly string[]> = {
  'session.prompt': ['AGENT_BUSY'],
  'session.rename': [],
  'session.selectModel': [],
  'session.cancel': [],
  'session.fork': [],
};

describe('commands on one session never collide', () => {
  it.each([
    ['a prompt beside a rename', PROMPT, RENAME],
    ['a rename beside a prompt', RENAME, PROMPT],
    ['two renames', RENAME, RENAME],
    ['a prompt beside a model selection', PROMPT, SELECT],
    ['a model selection beside a rename', SELECT, RENAME],
    ['two prompts', PROMPT, PROMPT],
    ['a prompt beside a cancel', PROMPT, CANCEL],
    ['a fork beside a rename', FORK, RENAME],
  ])('%s, from two clients at once on a cold session, both take effect', async (_label, first, second) => {
    const model = await heldModel();
    t = await startTestHost({
      prefix: 'strand-command-races',
      runtime: {
        syncSearch: false,
        model: { provider: 'local', model: 'held-1', baseUrl: server!.baseUrl },
      },
    });
    const a = await t.connect();
    const b = await t.connect();
    // A first turn, so the session is not blank (a blank one stays attached) and settles cold.
    const { id } = await a.call<{ id: string }>('session.create', { cwd: '/work', prompt: 'start' });
    const rounds = 4;
    for (let round = 0; round < rounds; round++) {
      // Cold again: the command must publish the session from disk, which is where they raced.
      await detached(t, id);
      model.hold();
      const replies = await Promise.all([
        a.request(first[0], first[1](id, round)),
        b.request(second[0], second[1](id, round)),
      ]);
      model.release();
      const refusals = replies.flatMap((reply, i) => {
        const method = i === 0 ? first[0] : second[0];
        const code = reply.error?.data?.code;
        return code === undefined || ABOUT_THE_SESSION[method]!.includes(code) ? [] : [`${method}: ${code}`];
      });
      expect(refusals, `round ${round}`).toEqual([]);
      // A pair of prompts runs one turn (the other is busy: the turn waits for the model until both
      // replies are in); any other pair takes effect twice.
      const accepted = replies.filter((reply) => reply.error === undefined).length;
      expect(accepted).toBe(first === PROMPT && second === PROMPT ? 1 : 2);
    }
    await t.runtime.agents.whenSettled();
    // Every turn went to the held model: the first, and one a round for a pair of prompts.
    if (first === PROMPT && second === PROMPT) expect(server!.requests).toHaveLength(1 + rounds);
    const titles = await storedTitles(a, id);
    const renamesSent = [first, second].filter((c) => c === RENAME).length * rounds;
    expect(titles.length).toBe(renamesSent);
  });
});

/** Resolves once the session is not in the live store (at once if it is not). */
function detached(host: TestHost, id: string): Promise<void> {
  const store = host.runtime.services.store;
  return new Promise((resolve) => {
    const stop = store.subscribe((change) => {
      if (change.kind === 'detached' && change.session.id === id) done();
    });
    const done = (): void => {
      stop();
      resolve();
    };
    if (!store.has(SessionId(id))) done();
  });
}

describe('on a host that runs no agents', () => {
  it('concurrent renames of a cold session all take effect, one publication at a time', async () => {
    t = await startTestHost({ prefix: 'strand-command-races', runtime: { syncSearch: false } });
    const { id } = await (await t.connect()).call<{ id: string }>('session.create', { prompt: 'start' });
    await detached(t, id);
    const { agents: _agents, ...withoutAgents } = t.runtime.services;
    const bare = await startHost({ services: withoutAgents });
    const clients = await Promise.all([RpcTestClient.open(bare.rpcUrl), RpcTestClient.open(bare.rpcUrl)]);
    try {
      const replies = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          clients[i % 2]!.request('session.rename', { id, title: `title ${i}` }),
        ),
      );
      expect(replies.map((reply) => reply.error?.data?.code)).toEqual(Array(8).fill(undefined));
      expect((await storedTitles(clients[0], id)).sort()).toEqual(
        Array.from({ length: 8 }, (_, i) => `title ${i}`).sort(),
      );
    } finally {
      for (const client of clients) client.close();
      await bare.close();
    }
  });
});

async function storedTitles(client: RpcTestClient, id: string): Promise<string[]> {
  const page = await client.call<{ events: WireEvent[] }>('session.page', { id, fromSeq: 0, limit: 10_000 });
  return page.events
    .filter((e) => e.type === 'session/title')
    .map((e) => (e.data as { title: string }).title)
    .filter((title) => title.startsWith('title '));
}
