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
  options: { title?: string; cwd?: string; source?: SessionSource } = {},
): Promise<void> {
  const { persistence } = runtime.services;
  const header = newSessionHeader({
    id: SessionId(id),
    createdAt: 1_000 + created++,
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    ...(options.source === undefined ? {} : { source: options.source }),
  });
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

  it('narrows by project folder and by harness, paging without repeats', async () => {
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

  it('refuses an unknown harness or an empty project folder as invalid params', async () => {
    for (const params of [
      { query: 'x', harness: 'no-such-harness' },
      { query: 'x', cwd: '' },
    ]) {
      const reply = await client.request('session.search', params);
      expect(reply.error).toMatchObject({ code: -32602 });
    }
  });
});
