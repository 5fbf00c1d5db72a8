// Embedding Strand's session layer in another program, from the published packages only.
// `npm run test:pack` installs the packed tarballs into a fresh project and runs this file there
// with plain `node`: it prints one JSON line, `{"ok":true,"sessions":N,"cursor":C}`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { persistenceWriter } from '@strand/persistence';
import { BUILT_IN_UNITS, ProjectionRegistry } from '@strand/projection';
import { listCorpus } from '@strand/query';
import { Session, SessionId, newSessionHeader } from '@strand/session';
import { composeBaseStack, openFileStores } from '@strand/stack';

const dataDir = mkdtempSync(path.join(tmpdir(), 'strand-embed-'));
const registry = new ProjectionRegistry({ units: BUILT_IN_UNITS });
// The data folder's stores: JSONL + zstd session logs, the SQLite projection cache and search index.
const stack = composeBaseStack({
  stores: await openFileStores({ dataDir, backend: 'jsonl', registry }),
  registry,
});

try {
  const id = SessionId('embedded-1');
  const header = newSessionHeader({ id, createdAt: Date.now() });
  const { incarnation } = await stack.persistence.create({ header });
  const session = new Session({ header, incarnation, writer: persistenceWriter(stack.persistence, id) });

  // `append` resolves once the batch is durable (written and acknowledged by the persistence).
  await session.append([
    { type: 'session/title', data: { title: 'Embedded' } },
    { type: 'turn/start', data: {} },
    { type: 'user/message', data: { content: 'Hello', author: 'human' } },
    { type: 'assistant/message', data: { content: 'Hi there', usage: { input: 3, output: 2 } } },
    { type: 'turn/end', data: { reason: 'completed' } },
  ]);
  await stack.persistence.flush();

  // The session was never attached to the live store: listing and observing read it from disk.
  const rows = await listCorpus(stack.persistence, stack.store);
  const observation = await stack.query.observeSession(id, { projectionMode: 'all' });
  try {
    const title = observation.projections?.values['title'];
    const ok =
      rows.some((row) => row.header.id === id) &&
      observation.source === 'cold' &&
      observation.cursor === session.cursor &&
      title === 'Embedded';
    console.log(JSON.stringify({ ok, sessions: rows.length, cursor: observation.cursor }));
    if (!ok) process.exitCode = 1;
  } finally {
    observation.dispose();
  }
} finally {
  await stack.close();
  rmSync(dataDir, { recursive: true, force: true });
}
