import { expect, it } from 'vitest';
import { SessionId, SessionSeq } from '@strand/session';
import type { SessionPersistence } from '@strand/persistence';
import { closedTurn, createWritingSession, testHeader, writingSession } from './log-builders.js';
import { rejectsWith, type WithStore } from './persistence-contract-harness.js';

/** Attachments, delete and re-create, unknown ids, and close. */
export function lifecycleBehaviour(withStore: WithStore): void {
  it('round-trips attachments by the ref putAttachment returns; an unknown ref is PERSISTENCE_ATTACHMENT_NOT_FOUND', () =>
    withStore(async (store) => {
      const a = await createWritingSession(store.p, testHeader('attach-a'));
      const b = await createWritingSession(store.p, testHeader('attach-b'));
      await a.append(closedTurn('a'));
      await b.append(closedTurn('b'));
      const bytes = Uint8Array.from({ length: 3000 }, (_, i) => (i * 7) % 256);
      const ref = await store.p.putAttachment(a.id, { bytes, mediaType: 'image/png' });
      expect(await store.p.putAttachment(a.id, { bytes, mediaType: 'image/png' })).toBe(ref);
      const check = async (p: SessionPersistence): Promise<void> => {
        const read = await p.readAttachment(a.id, ref);
        expect([...read.bytes]).toEqual([...bytes]);
        expect(read.mediaType).toBe('image/png');
        await rejectsWith(p.readAttachment(a.id, 'f'.repeat(64)), 'PERSISTENCE_ATTACHMENT_NOT_FOUND');
        await rejectsWith(p.readAttachment(b.id, ref), 'PERSISTENCE_ATTACHMENT_NOT_FOUND');
      };
      await check(store.p);
      await check(await store.reopen());
    }));

  it('keeps an attachment put before the first append of a lazily created session', () =>
    withStore(async (store) => {
      const header = testHeader('attach-early');
      const { incarnation } = await store.p.create({ header });
      const ref = await store.p.putAttachment(header.id, {
        bytes: new Uint8Array([9, 8, 7]),
        mediaType: 'image/jpeg',
      });
      await writingSession(store.p, header, incarnation).append([
        { type: 'turn/start', data: {} },
        { type: 'user/message', data: { content: [{ type: 'image', ref }], author: 'human' } },
        { type: 'turn/end', data: { reason: 'completed' } },
      ]);
      const read = await (await store.reopen()).readAttachment(header.id, ref);
      expect([...read.bytes]).toEqual([9, 8, 7]);
      expect(read.mediaType).toBe('image/jpeg');
    }));

  it('deletes a session; a re-create gets a new incarnation and none of the old events or attachments', () =>
    withStore(async ({ p }) => {
      const header = testHeader('reborn');
      const old = await createWritingSession(p, header);
      await old.append(closedTurn('old life'));
      const ref = await p.putAttachment(header.id, { bytes: new Uint8Array([1]), mediaType: 'text/plain' });
      const oldRevision = await p.revisionOf(header.id);
      await p.delete(header.id);
      expect(await p.list()).toEqual([]);
      expect(await p.revisionOf(header.id)).toBeUndefined();
      await rejectsWith(p.inspect(header.id), 'PERSISTENCE_NOT_FOUND');
      const reborn = await createWritingSession(p, header);
      expect(reborn.incarnation).not.toBe(old.incarnation);
      await reborn.append({ type: 'session/title', data: { title: 'new life' } });
      const log = await p.inspect(header.id);
      expect(log.incarnation).toBe(reborn.incarnation);
      expect(log.events).toEqual(reborn.events);
      expect(log.revision).not.toBe(oldRevision);
      await rejectsWith(p.readAttachment(header.id, ref), 'PERSISTENCE_ATTACHMENT_NOT_FOUND');
    }));

  it('reports an unknown id as PERSISTENCE_NOT_FOUND from inspect, load, readFrom and delete', () =>
    withStore(async ({ p }) => {
      const ghost = SessionId('ghost');
      expect(await p.revisionOf(ghost)).toBeUndefined();
      await rejectsWith(p.inspect(ghost), 'PERSISTENCE_NOT_FOUND');
      await rejectsWith(p.load(ghost), 'PERSISTENCE_NOT_FOUND');
      await rejectsWith(p.readFrom(ghost, SessionSeq(0)), 'PERSISTENCE_NOT_FOUND');
      await rejectsWith(p.delete(ghost), 'PERSISTENCE_NOT_FOUND');
    }));

  it('fails every call after close with PERSISTENCE_CLOSED', () =>
    withStore(async ({ p }) => {
      const session = await createWritingSession(p, testHeader('closing'));
      await session.append(closedTurn('a'));
      await p.close();
      const sid = session.id;
      await rejectsWith(p.create({ header: testHeader('late') }), 'PERSISTENCE_CLOSED');
      await rejectsWith(p.append(sid, []), 'PERSISTENCE_CLOSED');
      await rejectsWith(p.list(), 'PERSISTENCE_CLOSED');
      await rejectsWith(p.revisionOf(sid), 'PERSISTENCE_CLOSED');
      await rejectsWith(p.inspect(sid), 'PERSISTENCE_CLOSED');
      await rejectsWith(p.load(sid), 'PERSISTENCE_CLOSED');
      await rejectsWith(p.readFrom(sid, SessionSeq(0)), 'PERSISTENCE_CLOSED');
      await rejectsWith(
        p.putAttachment(sid, { bytes: new Uint8Array([1]), mediaType: 'text/plain' }),
        'PERSISTENCE_CLOSED',
      );
      await rejectsWith(p.readAttachment(sid, 'f'.repeat(64)), 'PERSISTENCE_CLOSED');
      await rejectsWith(p.delete(sid), 'PERSISTENCE_CLOSED');
    }));
}
