/**
 * The writer half of the crash test: appends turns to one session as fast as it can, printing
 * `ack <lastSeq>` after each append resolves (i.e. is durable), until the parent SIGKILLs it.
 * It starts each round the way a restarted host would: a repairing publication of the cold log.
 */
import { Session, SessionId, SessionStore, newSessionHeader } from '@strand/session';
import { isPersistenceError } from '../errors.js';
import { openJsonlPersistence } from '../jsonl/jsonl-persistence.js';
import { openSqlitePersistence } from '../sqlite/sqlite-persistence.js';
import { SessionPreparations } from '../preparation/session-preparations.js';
import { persistenceWriter } from '../preparation/persistence-writer.js';
import type { SessionPersistence } from '../types.js';

const [root, backend = 'jsonl', rawId = 'crash-session'] = process.argv.slice(2);
if (root === undefined) throw new Error('usage: crash-writer.child.ts <root> [jsonl|sqlite] [id]');
const id = SessionId(rawId);

async function open(): Promise<SessionPersistence> {
  if (backend === 'jsonl') return openJsonlPersistence({ root: root! });
  return openSqlitePersistence({ path: `${root!}/strand.db` });
}

const persistence = await open();
const store = new SessionStore();
let session: Session;
try {
  session = await new SessionPreparations(persistence).reserve(id).then((r) => r.publish(store));
} catch (error) {
  if (!isPersistenceError(error, 'PERSISTENCE_NOT_FOUND')) throw error;
  const header = newSessionHeader({ id });
  const { incarnation } = await persistence.create({ header });
  session = new Session({ header, incarnation, writer: persistenceWriter(persistence, id) });
  store.attach(session);
}

const ack = (events: readonly { seq: number }[]): void => {
  const last = events.at(-1);
  if (last !== undefined) process.stdout.write(`ack ${last.seq}\n`);
};
const payload = (text: string): { type: string; data: unknown } => ({
  type: 'test/payload',
  // The seq this payload will get: the in-memory tip (an append may still be in flight).
  data: { seq: session.inMemoryTip().cursor, text },
});

process.stdout.write('ready\n');
for (let turn = 0; ; turn++) {
  await session
    .append([
      { type: 'turn/start', data: {} },
      { type: 'user/message', data: { content: `prompt ${turn}`, author: 'human' } },
    ])
    .then(ack);
  // Two appends in flight at once: the second joins the first's group commit.
  const a = session.append([
    { type: 'step/start', data: {} },
    { type: 'tool/call', data: { callId: `c${turn}`, name: 'write', arguments: '{}' } },
  ]);
  const b = session.append(payload('x'.repeat((turn * 37) % 900)));
  await Promise.all([a.then(ack), b.then(ack)]);
  await session
    .append([
      { type: 'tool/result', data: { callId: `c${turn}`, content: 'ok' } },
      { type: 'step/end', data: {} },
    ])
    .then(ack);
  await session.append({ type: 'turn/end', data: { reason: 'completed' } }).then(ack);
}
