import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { persistenceWriter } from '@strand/persistence';
import { Session, SessionId, newSessionHeader } from '@strand/session';
import { CountingPersistence } from '@strand/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStrandRuntime } from './strand-runtime.js';

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'strand-runtime-marker-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

/** Opens the runtime over the SQLite files store, runs `body`, closes; resolves with the walks at open. */
async function openOnce(
  body: (runtime: Awaited<ReturnType<typeof openStrandRuntime>>) => Promise<void> = async () => {},
) {
  let counting: CountingPersistence | undefined;
  const runtime = await openStrandRuntime({
    dataDir,
    backend: 'sqlite',
    syncSearch: false,
    wrapPersistence: (inner) => (counting = new CountingPersistence(inner)),
  });
  try {
    const walks = counting!.walks;
    await runtime.listReady;
    await body(runtime);
    return walks;
  } finally {
    await runtime.close();
  }
}

describe('host open over an unchanged corpus', () => {
  it('walks the stored sessions only when they changed since the last completed walk', async () => {
    expect(await openOnce()).toBe(1);
    // Nothing changed: the marker recorded at the first open matches.
    expect(await openOnce()).toBe(0);
    // This run stores a session (its row is written at once, but the host records no marker for
    // its own creates): the next open walks once, the one after does not.
    await openOnce(async ({ services }) => {
      const header = newSessionHeader({ id: SessionId('made-here'), createdAt: 1_000 });
      const { incarnation } = await services.persistence.create({ header });
      await new Session({
        header,
        incarnation,
        writer: persistenceWriter(services.persistence, header.id),
      }).append([{ type: 'session/title', data: { title: 'made here' } }]);
    });
    expect(await openOnce()).toBe(1);
    expect(await openOnce()).toBe(0);
  });
});
