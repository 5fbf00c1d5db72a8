/**
 * The writer half of the crash test: appends turns to one session — or to several at once, whose
 * appends the backend groups into shared commits — as fast as it can, printing `ack <id> <lastSeq>`
 * after each append resolves (i.e. is durable), until the parent SIGKILLs it. It starts each round
 * the way a restarted host would: a repairing publication of each cold log.
 */
import { Session, SessionId, SessionStore, newSessionHeader } from '@strand/session';
import { isPersistenceError } from '../errors.js';
import { openJsonlPersistence } from '../jsonl/jsonl-persistence.js';
import { openSqlitePersistence } from '../sqlite/sqlite-persistence.js';
import { SessionPreparations } from '../preparation/session-preparations.js';
import { persistenceWriter } from '../preparation/persistence-writer.js';
import type { SessionPersistence } from '../types.js';

const [root, backend = 'jsonl', rawId = 'crash-session', rawCount = '1'] = process.argv.slice(2);
if (root === undefined) throw new Error('usage: crash-writer.child.ts <root> [jsonl|sqlite] [id] [sessions]');
const count = Number(rawCount);
/** One session keeps its plain id; a fan-out of several numbers them. */
const ids =
  count === 1 ? [SessionId(rawId)] : Array.from({ length: count }, (_, i) => SessionId(`${rawId}-${i}`));

async function open(): Promise<SessionPersistence> {
  if (backend === 'jsonl') return openJsonlPersistence({ root: root! });
  return openSqlitePersistence({
    path: `${root!}/strand.db`,
    // Tells the parent a commit really held several sessions' appends.
    onGroupCommitted: ({ sessions }) => {
      if (sessions > 1) process.stdout.write(`group ${sessions}\n`);
    },
  });
}

const persistence = await open();
const store = new SessionStore();

async function start(id: SessionId): Promise<Session> {
  try {
    return await new SessionPreparations(persistence).reserve(id).then((r) => r.publish(store));
  } catch (error) {
    if (!isPersistenceError(error, 'PERSISTENCE_NOT_FOUND')) throw error;
    const header = newSessionHeader({ id });
    const { incarnation } = await persistence.create({ header });
    const session = new Session({ header, incarnation, writer: persistenceWriter(persistence, id) });
    store.attach(session);
    return session;
  }
}

/** Appends turns to `session` until the process is killed, printing `ack <id> <lastSeq>` per durable append. */
async function writeTurns(session: Session): Promise<never> {
  const ack = (events: readonly { seq: number }[]): void => {
    const last = events.at(-1);
    if (last !== undefined) process.stdout.write(`ack ${session.id} ${last.seq}\n`);
  };
  const payload = (text: string): { type: string; data: unknown } => ({
    type: 'test/payload',
    // The seq this payload will get: the in-memory tip (an append may still be in flight).
    data: { seq: session.inMemoryTip().cursor, text },
  });
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
}

// Every session starts (repairs) before any writes, so `ready` means all of them are writing.
const sessions = await Promise.all(ids.map(start));
process.stdout.write('ready\n');
await Promise.all(sessions.map(writeTurns));
