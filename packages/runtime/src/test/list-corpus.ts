import { defined } from '@strand/session';
import { expect } from 'vitest';
import type { SessionPersistence } from '@strand/persistence';
import type { SessionListRow } from '@strand/protocol';
import { writeStoredSession } from '@strand/test-support';
import type { StrandRuntime } from '../strand-runtime.js';
import type { RpcTestClient } from '../testing/host-fixture.js';

/*
 * The corpus the list index tests page (files and PostgreSQL): sessions with no turns, so their
 * activity is `createdAt`, equal in pairs so the id tiebreak is exercised.
 */

export type ListPage = { sessions: SessionListRow[]; nextCursor?: string };

export const LIST_CORPUS_SIZE = 23;
export const listCorpusId = (n: number): string => `s${String(n).padStart(2, '0')}`;

/** Writes the corpus through `persistence`. */
export async function writeListCorpus(persistence: SessionPersistence): Promise<void> {
  for (let n = 0; n < LIST_CORPUS_SIZE; n++)
    await writeStoredSession(persistence, listCorpusId(n), 0, {
      header: { createdAt: 1_000 + Math.floor(n / 2), cwd: n % 3 === 0 ? '/a' : '/b' },
    });
}

/** The documented order over the corpus (createdAt descending, then id), of the sessions `filter` keeps. */
export function listCorpusOrder(filter: (n: number) => boolean = () => true): string[] {
  return Array.from({ length: LIST_CORPUS_SIZE }, (_, n) => n)
    .filter(filter)
    .sort((a, b) => Math.floor(b / 2) - Math.floor(a / 2) || a - b)
    .map(listCorpusId);
}

/** Every id `session.list` pages through with these params, `limit` at a time. */
export async function pageThrough(client: RpcTestClient, params: object, limit: number): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page <= LIST_CORPUS_SIZE; page++) {
    const result = await client.call<ListPage>('session.list', {
      ...params,
      limit,
      ...defined({ cursor }),
    });
    expect(result.sessions.length).toBeLessThanOrEqual(limit);
    ids.push(...result.sessions.map((row) => row.id));
    if (result.nextCursor === undefined) return ids;
    cursor = result.nextCursor;
  }
  throw new Error('paging did not end');
}

/**
 * A host that opened over an index missing the corpus's rows: its first page is complete at once
 * (header facts), and once its hints are folded every row has them. Resolves with that page.
 */
export async function expectReconciled(
  runtime: Pick<StrandRuntime, 'listReady'>,
  client: RpcTestClient,
): Promise<ListPage> {
  const params = { parent: null, limit: 1000 };
  const first = await client.call<ListPage>('session.list', params);
  expect(first.sessions.map((row) => row.id)).toEqual(listCorpusOrder());
  await runtime.listReady;
  const page = await client.call<ListPage>('session.list', params);
  expect(page.sessions.every((row) => row.hints?.values.listMetadata !== undefined)).toBe(true);
  return page;
}
