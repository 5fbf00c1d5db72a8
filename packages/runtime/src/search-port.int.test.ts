import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startHost, type RunningHost } from '@strand/host';
import { persistenceWriter } from '@strand/persistence';
import type { SearchResult } from '@strand/protocol';
import { Session, SessionId, newSessionHeader, type SessionSource } from '@strand/session';
import { openStrandRuntime, type StrandRuntime } from './strand-runtime.js';
import { RpcTestClient } from './testing/host-fixture.js';

let root: string;
let runtime: StrandRuntime;
let host: RunningHost;
let client: RpcTestClient;

beforeEach(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'strand-search-port-'));
  runtime = await openStrandRuntime({ dataDir: root });
  host = await startHost({ services: runtime.services });
  client = await RpcTestClient.open(host.rpcUrl);
});
afterEach(async () => {
  client.close();
  await host.close();
  await runtime.close();
  rmSync(root, { recursive: true, force: true });
});

let created = 0;
async function stored(
  id: string,
  texts: string[],
  options: {
    title?: string;
    cwd?: string;
    source?: SessionSource;
    parentSession?: string;
    forkedFrom?: string;
  } = {},
): Promise<void> {
  const { persistence } = runtime.services;
  const made = newSessionHeader({
    id: SessionId(id),
    createdAt: 1_000 + created++,
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    ...(options.source === undefined ? {} : { source: options.source }),
    ...(options.parentSession === undefined
      ? {}
      : { parentSession: SessionId(options.parentSession), origin: 'subagent' as const }),
  });
  // A fork's parent without its copied prefix: only the header fact is under test here.
  const header =
    options.forkedFrom === undefined ? made : { ...made, forkedFrom: SessionId(options.forkedFrom) };
  const { incarnation } = await persistence.create({ header });
  const session = new Session({ header, incarnation, writer: persistenceWriter(persistence, header.id) });
  for (const text of texts)
    await session.append({ type: 'user/message', data: { content: text, author: 'human' } });
  if (options.title !== undefined)
    await session.append({ type: 'session/title', data: { title: options.title } });
}

const sync = () =>
  runtime.search.sync({ persistence: runtime.services.persistence, live: runtime.services.store });
type Page = { results: SearchResult[]; nextCursor?: string };
const search = (params: Record<string, unknown>) => client.call<Page>('session.search', params);

describe('session.search through the runtime', () => {
  it('finds a session by a title word, ranks the title match first and shows the title', async () => {
    await stored('titled', ['nothing relevant'], { title: 'Refactor the lexer' });
    await stored('busy', ['lexer one', 'lexer lexer two', 'lexer three']);
    await sync();
    const page = await search({ query: 'lexer' });
    expect(page.results.map((r) => [r.sessionId, r.title])).toEqual([
      ['titled', 'Refactor the lexer'],
      ['busy', null],
    ]);
    // The title hit links to the `session/title` event (seq 1); the UI opens the session there.
    expect(page.results[0]!.hits[0]!.seq).toBe(1);
    // A result matched by its messages still shows its title.
    const other = await search({ query: 'relevant' });
    expect(other.results).toEqual([
      expect.objectContaining({ sessionId: 'titled', title: 'Refactor the lexer' }),
    ]);
  });

  it("carries each session's header facts, so a result is described without a follow", async () => {
    await stored('top', ['a heron'], { cwd: '/work/a', source: { harness: 'codex', sourceId: 'x' } });
    await stored('child', ['a heron'], { cwd: '/work/a', parentSession: 'top' });
    await stored('fork', ['a heron'], { forkedFrom: 'top' });
    await sync();
    const page = await search({ query: 'heron' });
    const facts = Object.fromEntries(
      page.results.map(({ sessionId, title: _title, hits: _hits, ...rest }) => [sessionId, rest]),
    );
    expect(facts).toEqual({
      top: { cwd: '/work/a', harness: 'codex' },
      child: { cwd: '/work/a', harness: 'strand', parentSession: 'top', origin: 'subagent' },
      fork: { harness: 'strand', forkedFrom: 'top' },
    });
  });

  it('narrows by project folder, by project name and by harness, paging without repeats', async () => {
    await stored('a1', ['shared word'], { cwd: '/work/a' });
    await stored('b1', ['shared word'], { cwd: '/work/b' });
    await stored('a2', ['shared word'], { cwd: '/work/a', source: { harness: 'codex', sourceId: 'x' } });
    await stored('c1', ['shared word'], { source: { harness: 'claude-code', sourceId: 'y' } });
    await stored('a3', ['shared word'], { cwd: '/work/a/sub' });
    await sync();
    const ids = (page: Page) => page.results.map((r) => r.sessionId).sort();
    expect(ids(await search({ query: 'shared', cwd: '/work/a' }))).toEqual(['a1', 'a2']);
    expect(ids(await search({ query: 'shared', harness: 'codex' }))).toEqual(['a2']);
    expect(ids(await search({ query: 'shared', harness: 'strand' }))).toEqual(['a1', 'a3', 'b1']);
    expect(ids(await search({ query: 'shared', harness: 'strand', cwd: '/work/a' }))).toEqual(['a1']);
    // A project by its folder name: `/work/a/sub` is the project `sub`, not `a`.
    expect(ids(await search({ query: 'shared', projectName: 'a' }))).toEqual(['a1', 'a2']);
    expect(ids(await search({ query: 'shared', projectName: 'sub' }))).toEqual(['a3']);
    expect(ids(await search({ query: 'shared', projectName: 'a', harness: 'codex' }))).toEqual(['a2']);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await search({
        query: 'shared',
        harness: 'strand',
        limit: 1,
        ...(cursor === undefined ? {} : { cursor }),
      });
      expect(page.results.length).toBeLessThanOrEqual(1);
      seen.push(...page.results.map((r) => r.sessionId));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(seen.sort()).toEqual(['a1', 'a3', 'b1']);
  });

  it('narrows inside the index: full filtered pages, and no call lists the persisted headers', async () => {
    for (let i = 0; i < 6; i++) await stored(`mine${i}`, ['common word'], { cwd: '/work/mine' });
    for (let i = 0; i < 6; i++) await stored(`other${i}`, ['common word'], { cwd: '/work/other' });
    await sync();
    // A spy on the real persistence: it counts, the listing still runs.
    const list = vi.spyOn(runtime.services.persistence, 'list');
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await search({
        query: 'common',
        cwd: '/work/mine',
        limit: 4,
        ...(cursor === undefined ? {} : { cursor }),
      });
      pages++;
      // The filter is part of the index's query, so the first page is full.
      if (page.nextCursor !== undefined) expect(page.results).toHaveLength(4);
      seen.push(...page.results.map((r) => r.sessionId));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(pages).toBe(2);
    expect(seen.sort()).toEqual(['mine0', 'mine1', 'mine2', 'mine3', 'mine4', 'mine5']);
    expect(list).not.toHaveBeenCalled();
    list.mockRestore();
  });

  it('refuses a filtered cursor for another filter as invalid params of the search', async () => {
    for (let i = 0; i < 3; i++) await stored(`s${i}`, ['common word'], { cwd: '/work/mine' });
    await sync();
    const first = await search({ query: 'common', cwd: '/work/mine', limit: 1 });
    const reply = await client.request('session.search', {
      query: 'common',
      limit: 1,
      cursor: first.nextCursor,
    });
    expect(reply.error).toMatchObject({ code: -33100 });
  });

  it('narrows by a harness this build has no label for (an open vocabulary)', async () => {
    await stored('o1', ['plover'], { source: { harness: 'opencode', sourceId: 'ses_1' } });
    await stored('o2', ['plover'], { source: { harness: 'codex', sourceId: 'z' } });
    await sync();
    const page = await search({ query: 'plover', harness: 'opencode' });
    expect(page.results.map((r) => r.sessionId)).toEqual(['o1']);
  });

  it('refuses a harness name of the wrong shape or an empty project folder as invalid params', async () => {
    for (const params of [
      { query: 'x', harness: 'Open Code' },
      { query: 'x', harness: '../codex' },
      { query: 'x', cwd: '' },
    ]) {
      const reply = await client.request('session.search', params);
      expect(reply.error).toMatchObject({ code: -32602 });
    }
  });
});
