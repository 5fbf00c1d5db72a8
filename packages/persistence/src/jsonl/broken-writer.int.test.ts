import { appendFileSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Session, SessionId, newSessionHeader } from '@strand/session';
import { persistenceWriter } from '../preparation/persistence-writer.js';
import { openJsonlPersistence } from './jsonl-persistence.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'strand-broken-writer-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('a session whose durable write failed', () => {
  it.each(['zstd', 'none'] as const)(
    'is repaired by the next load of the same process (%s): the failed writer is dropped, the file opened afresh',
    async (compression) => {
      const persistence = await openJsonlPersistence({ root, compression });
      const id = SessionId('broken');
      const header = newSessionHeader({ id });
      const { incarnation } = await persistence.create({ header });
      const session = new Session({
        header,
        incarnation,
        writer: persistenceWriter(persistence, id),
        reportListenerError: () => undefined,
      });
      await session.append([
        { type: 'turn/start', data: {} },
        { type: 'user/message', data: { content: 'hello', author: 'human' } },
      ]);
      // A torn write another writer left at the end (the start of a frame, or of a line): this
      // process's next write refuses to interleave with it.
      const file = path.join(root, 'sessions', readdirSync(path.join(root, 'sessions'))[0]!);
      appendFileSync(file, compression === 'zstd' ? readFileSync(file).subarray(0, 12) : '{"type":"torn');
      await expect(session.append({ type: 'step/start', data: {} })).rejects.toMatchObject({
        code: 'SESSION_WRITE_FAILED',
      });
      expect(session.writeFailure).toBeDefined();

      // The live session stopped; reopening it repairs the crashed turn although this process
      // still held (a broken) writer for the file.
      const loaded = await persistence.load(id);
      expect(loaded.events.map((e) => e.type)).toEqual(['turn/start', 'user/message', 'turn/end']);
      expect(loaded.events[2]!.data).toEqual({ reason: 'interrupted' });
      const reopened = new Session({
        header,
        incarnation,
        events: loaded.events,
        writer: persistenceWriter(persistence, id),
      });
      await reopened.append({ type: 'session/title', data: { title: 'after repair' } });
      await persistence.close();
      const fresh = await openJsonlPersistence({ root, compression });
      const stored = await fresh.inspect(id);
      expect(stored.events).toEqual(reopened.events);
      expect(stored.tornTail).toBe(false);
      await fresh.close();
    },
  );
});
