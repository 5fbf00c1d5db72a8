import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startHost, type RunningHost } from '@strand/host';
import type { SessionListRow } from '@strand/protocol';
import { STORE_FILES } from '@strand/stack';
import { writeStoredSession } from '@strand/test-support';
import { RpcTestClient } from './testing/host-fixture.js';
import { openStrandRuntime, type StrandRuntime } from './strand-runtime.js';

/*
 * `session.list` answered from the list index: a corpus stored before the host opened, paged
 * without the host listing every header or reading a log, and a data folder whose index file is
 * gone reconciled at open so no page is short.
 */

type Page = { sessions: SessionListRow[]; nextCursor?: string };

const SESSIONS = 23;
const idOf = (n: number): string => `s${String(n).padStart(2, '0')}`;

let root: string | undefined;
const undo: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const step of undo.splice(0).reverse()) await step();
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

async function open(): Promise<{ runtime: StrandRuntime; host: RunningHost; client: RpcTestClient }> {
  const runtime = await openStrandRuntime({ dataDir: root!, syncSearch: false });
  undo.push(() => runtime.close());
  const host = await startHost({ services: runtime.services });
  undo.push(() => host.close());
  const client = await RpcTestClient.open(host.rpcUrl);
  undo.push(() => client.close());
  return { runtime, host, client };
}

async function close(): Promise<void> {
  for (const step of undo.splice(0).reverse()) await step();
}

/** A corpus written through persistence, with no list rows: no turns, so activity is `createdAt`. */
async function corpus(): Promise<void> {
  root = mkdtempSync(path.join(tmpdir(), 'strand-list-index-'));
  const { runtime } = await open();
  for (let n = 0; n < SESSIONS; n++)
    await writeStoredSession(runtime.services.persistence, idOf(n), 0, {
      // Equal times in pairs, so the id tiebreak is exercised.
      header: { createdAt: 1_000 + Math.floor(n / 2), cwd: n % 3 === 0 ? '/a' : '/b' },
    });
  await close();
}

/** The documented order over this corpus: createdAt descending, then id. */
function expected(filter: (n: number) => boolean = () => true): string[] {
  return Array.from({ length: SESSIONS }, (_, n) => n)
    .filter(filter)
    .sort((a, b) => Math.floor(b / 2) - Math.floor(a / 2) || a - b)
    .map(idOf);
}

async function pageThrough(client: RpcTestClient, params: object, limit: number): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page <= SESSIONS; page++) {
    const result = await client.call<Page>('session.list', {
      ...params,
      limit,
      ...(cursor === undefined ? {} : { cursor }),
    });
    expect(result.sessions.length).toBeLessThanOrEqual(limit);
    ids.push(...result.sessions.map((row) => row.id));
    if (result.nextCursor === undefined) return ids;
    cursor = result.nextCursor;
  }
  throw new Error('paging did not end');
}

describe('session.list from the list index', () => {
  it('pages a stored corpus without listing every header or reading a log', async () => {
    await corpus();
    const { runtime, client } = await open();
    await runtime.listReady;
    const persistence = runtime.services.persistence;
    const reads = ['list', 'inspect', 'load', 'scan', 'readFrom', 'revisionOf'] as const;
    const spies = reads.map((name) => vi.spyOn(persistence, name));
    expect(await pageThrough(client, { parent: null }, 4)).toEqual(expected());
    expect(await pageThrough(client, { cwd: '/a' }, 2)).toEqual(expected((n) => n % 3 === 0));
    const whole = await client.call<Page>('session.list');
    expect(whole.sessions.map((row) => row.id)).toEqual(expected());
    // Folded at open: every row knows whether it is blank.
    expect(whole.sessions.every((row) => row.hints?.values.listMetadata !== undefined)).toBe(true);
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
  });

  it('a data folder whose index file was deleted is reconciled at open: the first page is complete', async () => {
    await corpus();
    const first = await open();
    await first.runtime.listReady;
    await close();
    for (const suffix of ['', '-wal', '-shm'])
      rmSync(path.join(root!, STORE_FILES.projectionCache + suffix), { force: true });
    const { runtime, client } = await open();
    // Header facts at once, before any hint is folded.
    expect(
      (await client.call<Page>('session.list', { parent: null, limit: 1000 })).sessions.map((row) => row.id),
    ).toEqual(expected());
    await runtime.listReady;
    const page = await client.call<Page>('session.list', { parent: null, limit: 1000 });
    expect(page.sessions.every((row) => row.hints?.values.listMetadata !== undefined)).toBe(true);
  });
});
