/**
 * The writer half of the create-burst crash test: creates sessions in bursts of 16 at once, whose
 * folder syncs (JSONL) or commits (SQLite) the backend shares, printing `created <id>` once a
 * create resolved (its header and directory entry are durable), until the parent SIGKILLs it.
 * Even-numbered sessions are created as the import creates them (a lazy create, then one append
 * of a whole closed turn: the atomic first write); odd ones are materialized empty (`materialize: true`).
 */
import { Session, SessionId, newSessionHeader } from '@strand/session';
import { openJsonlPersistence } from '../jsonl/jsonl-persistence.js';
import { openSqlitePersistence } from '../sqlite/sqlite-persistence.js';
import { persistenceWriter } from '../preparation/persistence-writer.js';
import type { SessionPersistence } from '../types.js';
import { closedTurn } from '@strand/test-support';

const [root, backend = 'jsonl', round = '0'] = process.argv.slice(2);
if (root === undefined) throw new Error('usage: create-burst.child.ts <root> [jsonl|sqlite] [round]');
const BURST = 16;

const persistence: SessionPersistence =
  backend === 'jsonl'
    ? await openJsonlPersistence({ root })
    : openSqlitePersistence({ path: `${root}/strand.db` });

async function createOne(id: SessionId, n: number): Promise<void> {
  const header = newSessionHeader({ id });
  if (n % 2 === 1) {
    await persistence.create({ header, materialize: true });
  } else {
    const { incarnation } = await persistence.create({ header });
    await new Session({ header, incarnation, writer: persistenceWriter(persistence, id) }).append(
      closedTurn(`prompt of ${id}`, `call-${id}`),
    );
  }
  process.stdout.write(`created ${id}\n`);
}

process.stdout.write('ready\n');
for (let burst = 0; ; burst++) {
  await Promise.all(
    Array.from({ length: BURST }, (_, i) => createOne(SessionId(`r${round}-b${burst}-${i}`), i)),
  );
}
