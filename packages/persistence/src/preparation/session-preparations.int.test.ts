import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Session, SessionId, SessionStore, newSessionHeader } from '@strand/session';
import { openJsonlPersistence, type JsonlSessionPersistence } from '../jsonl/jsonl-persistence.js';
import { persistenceWriter } from './persistence-writer.js';
import { SessionPreparations } from './session-preparations.js';

let root: string;
let persistence: JsonlSessionPersistence;

beforeEach(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'strand-prep-'));
  persistence = await openJsonlPersistence({ root });
});
afterEach(async () => {
  await persistence.close();
  rmSync(root, { recursive: true, force: true });
});

async function stored(id: string, openTurn = false): Promise<SessionId> {
  const sid = SessionId(id);
  const header = newSessionHeader({ id: sid });
  const { incarnation } = await persistence.create({ header });
  const session = new Session({ header, incarnation, writer: persistenceWriter(persistence, sid) });
  await session.append([
    { type: 'turn/start', data: {} },
    { type: 'user/message', data: { content: 'hello', author: 'human' } },
  ]);
  if (!openTurn) await session.append({ type: 'turn/end', data: { reason: 'completed' } });
  return sid;
}

describe('SessionPreparations', () => {
  it('two concurrent cold reads of one session decode it once', async () => {
    const id = await stored('a');
    const preparations = new SessionPreparations(persistence);
    const inspect = vi.spyOn(persistence, 'inspect');
    const [x, y] = await Promise.all([preparations.borrow(id), preparations.borrow(id)]);
    expect(x.prepared).toBe(y.prepared);
    expect(inspect).toHaveBeenCalledTimes(1);
    expect(preparations.stats()).toMatchObject({ decodes: 1, outstandingLeases: 2 });
    x.release();
    y.release();
    y.release(); // idempotent
    expect(preparations.stats().outstandingLeases).toBe(0);
  });

  it('a reader cancelled while queued is rejected at once; the shared load goes on for the others and no lease stays pinned', async () => {
    const id = await stored('a');
    const preparations = new SessionPreparations(persistence);
    let finish!: () => void;
    const gate = new Promise<void>((resolve) => (finish = resolve));
    const realInspect = persistence.inspect.bind(persistence);
    vi.spyOn(persistence, 'inspect').mockImplementation(async (...args) => {
      await gate;
      return realInspect(...args);
    });
    const controller = new AbortController();
    const cancelled = preparations.borrow(id, { signal: controller.signal });
    const patient = preparations.borrow(id);
    controller.abort();
    await expect(cancelled).rejects.toMatchObject({ code: 'PERSISTENCE_ABORTED' });
    expect(preparations.stats().outstandingLeases).toBe(1);
    finish();
    const lease = await patient;
    expect(lease.prepared.events).toHaveLength(3);
    lease.release();
    expect(preparations.stats()).toMatchObject({ decodes: 1, outstandingLeases: 0 });
  });

  it('an already-aborted signal is refused before any read', async () => {
    const id = await stored('a');
    const preparations = new SessionPreparations(persistence);
    await expect(preparations.borrow(id, { signal: AbortSignal.abort() })).rejects.toMatchObject({
      code: 'PERSISTENCE_ABORTED',
    });
    expect(preparations.stats()).toMatchObject({ decodes: 0, outstandingLeases: 0 });
  });

  it('keeps a small LRU of released sessions and retires the least recently used', async () => {
    const ids = await Promise.all(['a', 'b', 'c'].map((n) => stored(n)));
    const preparations = new SessionPreparations(persistence, { capacity: 2 });
    for (const id of ids) (await preparations.borrow(id)).release();
    expect(preparations.stats()).toMatchObject({ decodes: 3, entries: 2 });
    (await preparations.borrow(ids[2]!)).release(); // still cached
    expect(preparations.stats().decodes).toBe(3);
    (await preparations.borrow(ids[0]!)).release(); // retired: decoded again
    expect(preparations.stats().decodes).toBe(4);
  });

  it('a scan borrow (retain: false) computes and discards: it leaves no entry, evicts none, and stays only when a retaining borrower shares it', async () => {
    const [kept, scanned, shared] = [await stored('kept'), await stored('scanned'), await stored('shared')];
    const preparations = new SessionPreparations(persistence, { capacity: 1 });
    (await preparations.borrow(kept)).release();
    expect(preparations.stats().entries).toBe(1);
    const scan = await preparations.borrow(scanned, { retain: false });
    scan.release();
    // The retained entry survived (a scan never pushes it out), the scanned one is gone.
    expect(preparations.stats().entries).toBe(1);
    (await preparations.borrow(kept)).release();
    expect(preparations.stats().decodes).toBe(2);
    // A scan sharing one decode with a retaining reader: the entry is kept for that reader's sake.
    const [a, b] = await Promise.all([
      preparations.borrow(shared, { retain: false }),
      preparations.borrow(shared),
    ]);
    expect(a.prepared).toBe(b.prepared);
    a.release();
    b.release();
    (await preparations.borrow(shared, { retain: false })).release();
    expect(preparations.stats().decodes).toBe(3);
  });

  it('a pinned entry is never retired, whatever the capacity', async () => {
    const ids = await Promise.all(['a', 'b'].map((n) => stored(n)));
    const preparations = new SessionPreparations(persistence, { capacity: 0 });
    const pinned = await preparations.borrow(ids[0]!);
    (await preparations.borrow(ids[1]!)).release();
    expect(preparations.stats().entries).toBe(1);
    const again = await preparations.borrow(ids[0]!);
    expect(again.prepared).toBe(pinned.prepared);
    pinned.release();
    again.release();
    expect(preparations.stats().entries).toBe(0);
  });

  it('a cached preparation whose stored revision changed is not served', async () => {
    const id = await stored('a');
    const preparations = new SessionPreparations(persistence);
    const first = await preparations.borrow(id);
    first.release();
    await persistence.append(id, [Object.freeze({ type: 'x/later', seq: 3 as never, time: 1, data: null })]);
    const second = await preparations.borrow(id);
    expect(second.prepared.events).toHaveLength(4);
    expect(preparations.stats().decodes).toBe(2);
    second.release();
  });

  it('publication hands the prepared log to the live store without a second read and writes its repairs', async () => {
    const id = await stored('a', true);
    const preparations = new SessionPreparations(persistence);
    const lease = await preparations.borrow(id);
    expect(lease.prepared.repairs.map((e) => e.type)).toEqual(['turn/end']);
    const inspect = vi.spyOn(persistence, 'inspect');
    const reservation = await preparations.reserve(id);
    await expect(preparations.reserve(id)).rejects.toMatchObject({ code: 'PERSISTENCE_RESERVED' });
    const store = new SessionStore();
    const session = await reservation.publish(store);
    expect(inspect).not.toHaveBeenCalled();
    expect(store.get(id)).toBe(session);
    expect(session.events.map((e) => e.type)).toEqual(['turn/start', 'user/message', 'turn/end']);
    lease.release();
    expect(preparations.stats().outstandingLeases).toBe(0);
    // The closers are durable; the live session appends after them.
    await session.append([
      { type: 'turn/start', data: {} },
      { type: 'turn/end', data: { reason: 'completed' } },
    ]);
    const log = await persistence.inspect(id);
    expect(log.events.map((e) => e.type)).toEqual([
      'turn/start',
      'user/message',
      'turn/end',
      'turn/start',
      'turn/end',
    ]);
    expect(log.repairs).toEqual([]);
  });
});
