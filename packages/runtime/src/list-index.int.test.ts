import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startHost, type RunningHost } from '@strand/host';
import { STORE_FILES } from '@strand/stack';
import {
  expectReconciled,
  listCorpusOrder,
  pageThrough,
  writeListCorpus,
  type ListPage,
} from './test/list-corpus.js';
import { RpcTestClient } from './testing/host-fixture.js';
import { openStrandRuntime, type StrandRuntime } from './strand-runtime.js';

/*
 * `session.list` answered from the list index: a corpus stored before the host opened, paged
 * without the host listing every header or reading a log, and a data folder whose index file is
 * gone reconciled at open so no page is short.
 */

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

/** A corpus written through persistence (header-only list rows, noted at each first append). */
async function corpus(): Promise<void> {
  root = mkdtempSync(path.join(tmpdir(), 'strand-list-index-'));
  const { runtime } = await open();
  await writeListCorpus(runtime.services.persistence);
  await close();
}

describe('session.list from the list index', () => {
  it('pages a stored corpus without listing every header or reading a log', async () => {
    await corpus();
    const { runtime, client } = await open();
    await runtime.listReady;
    const persistence = runtime.services.persistence;
    const reads = ['list', 'inspect', 'load', 'scan', 'readFrom', 'revisionOf'] as const;
    const spies = reads.map((name) => vi.spyOn(persistence, name));
    expect(await pageThrough(client, { parent: null }, 4)).toEqual(listCorpusOrder());
    expect(await pageThrough(client, { cwd: '/a' }, 2)).toEqual(listCorpusOrder((n) => n % 3 === 0));
    const whole = await client.call<ListPage>('session.list');
    expect(whole.sessions.map((row) => row.id)).toEqual(listCorpusOrder());
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
    await expectReconciled(runtime, client);
  });
});
