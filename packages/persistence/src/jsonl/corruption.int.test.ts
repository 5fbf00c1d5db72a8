import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Session, SessionId, newSessionHeader, type SessionEvent } from '@strand/session';
import { PersistenceError } from '../errors.js';
import { persistenceWriter } from '../preparation/persistence-writer.js';
import { openJsonlPersistence, type JsonlSessionPersistence } from './jsonl-persistence.js';

const id = SessionId('corpus');
let root: string;

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'strand-corrupt-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

async function writeLog(
  compression: 'zstd' | 'none',
  batches = 6,
): Promise<{ file: string; events: readonly SessionEvent[] }> {
  const persistence = await openJsonlPersistence({ root, compression });
  const header = newSessionHeader({ id });
  const { incarnation } = await persistence.create({ header });
  const session = new Session({ header, incarnation, writer: persistenceWriter(persistence, id) });
  for (let b = 0; b < batches; b++) {
    await session.append([
      { type: 'turn/start', data: {} },
      { type: 'user/message', data: { content: `message ${b} ${'lorem '.repeat(b * 5)}`, author: 'human' } },
      { type: 'turn/end', data: { reason: 'completed' } },
    ]);
  }
  await persistence.close();
  const name = readdirSync(path.join(root, 'sessions'))[0]!;
  return { file: path.join(root, 'sessions', name), events: session.events };
}

async function reopen(): Promise<JsonlSessionPersistence> {
  return openJsonlPersistence({ root });
}

function codeOf(error: unknown): string {
  return error instanceof PersistenceError ? error.code : `untyped: ${String(error)}`;
}

describe('corruption corpus (zstd frames)', () => {
  it('a truncation at any offset reads a whole-batch prefix or, inside the header, is reported corrupt', async () => {
    const { file, events } = await writeLog('zstd');
    const bytes = readFileSync(file);
    for (let cut = 1; cut < bytes.length; cut += Math.max(1, Math.floor(bytes.length / 180))) {
      writeFileSync(file, bytes.subarray(0, cut));
      const persistence = await reopen();
      try {
        const log = await persistence.inspect(id);
        expect(log.events).toEqual(events.slice(0, log.events.length));
        expect(log.events.length % 3).toBe(0); // whole batches only
        expect(log.tornTail || log.events.length === events.length || cut === log.storedBytes).toBe(true);
        // A repairing load drops the torn tail; appends then continue after the valid prefix.
        await persistence.load(id);
        expect((await persistence.inspect(id)).tornTail).toBe(false);
      } catch (error) {
        expect(codeOf(error)).toBe('PERSISTENCE_CORRUPT');
        expect((error as PersistenceError).location?.byteOffset).toBe(0);
      } finally {
        await persistence.close();
      }
    }
  });

  it('a flipped byte before later valid data is corruption naming session and location, never skipped', async () => {
    const { file, events } = await writeLog('zstd');
    const bytes = readFileSync(file);
    let corruptions = 0;
    // Flip bytes across the first half of the file (header + early frames; later frames follow).
    for (let at = 0; at < bytes.length / 2; at += 7) {
      const damaged = Buffer.from(bytes);
      damaged[at] = damaged[at]! ^ 0x5a;
      writeFileSync(file, damaged);
      const persistence = await reopen();
      try {
        // zstd's content checksum proves the decoded text intact; a flip in bits the decoder
        // never uses is harmless. Anything else must be reported.
        const log = await persistence.inspect(id);
        expect(log.events).toEqual(events);
      } catch (error) {
        expect(codeOf(error)).toBe('PERSISTENCE_CORRUPT');
        expect((error as PersistenceError).sessionId).toBe(id);
        expect((error as PersistenceError).location?.byteOffset).toBeTypeOf('number');
        corruptions++;
      } finally {
        await persistence.close();
      }
    }
    expect(corruptions).toBeGreaterThan(10);
  });

  it('an unknown file format version is refused as unsupported, not as corrupt', async () => {
    const persistence = await openJsonlPersistence({ root, compression: 'none' });
    await persistence.close();
    const header = { ...newSessionHeader({ id }) };
    writeFileSync(
      path.join(root, 'sessions', 'corpus.jsonl'),
      JSON.stringify({
        format: 'strand-session',
        formatVersion: 99,
        incarnation: 'i',
        inheritedEventCount: 0,
        header,
      }) + '\n',
    );
    const again = await reopen();
    await expect(again.inspect(id)).rejects.toMatchObject({ code: 'PERSISTENCE_FORMAT_UNSUPPORTED' });
    writeFileSync(
      path.join(root, 'sessions', 'corpus.jsonl'),
      JSON.stringify({
        format: 'strand-session',
        formatVersion: 1,
        incarnation: 'i',
        inheritedEventCount: 0,
        header: { ...header, version: 7 },
      }) + '\n',
    );
    await expect(again.inspect(id)).rejects.toMatchObject({ code: 'PERSISTENCE_FORMAT_UNSUPPORTED' });
    await again.close();
  });
});

describe('corruption corpus (plain JSONL)', () => {
  it('a bad JSON line in the middle is corruption with its line number; at the end it is a torn tail', async () => {
    const { file, events } = await writeLog('none', 2);
    const lines = readFileSync(file, 'utf8').split('\n');
    const middle = [...lines];
    middle[3] = '{"type":"turn/start",';
    writeFileSync(file, middle.join('\n'));
    const persistence = await reopen();
    await expect(persistence.inspect(id)).rejects.toMatchObject({
      code: 'PERSISTENCE_CORRUPT',
      location: { line: 4 },
    });
    const tail = [...lines];
    tail[tail.length - 1] = '{"type":"turn/st'; // no newline: a torn last write
    writeFileSync(file, tail.join('\n'));
    const log = await persistence.inspect(id);
    expect(log.events).toEqual(events);
    expect(log.tornTail).toBe(true);
    await persistence.close();
  });

  it('a seq gap is corruption that says which seq was expected', async () => {
    const { file } = await writeLog('none', 2);
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.splice(2, 1); // drop seq 1
    writeFileSync(file, lines.join('\n'));
    const persistence = await reopen();
    await expect(persistence.inspect(id)).rejects.toThrow(/expected seq 1, got 2/);
    await persistence.close();
  });

  it('a line whose envelope has extra keys or a -0 is corruption', async () => {
    const { file } = await writeLog('none', 2);
    const lines = readFileSync(file, 'utf8').split('\n');
    lines[2] = JSON.stringify({ type: 'x', seq: 1, time: 0, data: 1, extra: true });
    writeFileSync(file, lines.join('\n'));
    const persistence = await reopen();
    await expect(persistence.inspect(id)).rejects.toMatchObject({ code: 'PERSISTENCE_CORRUPT' });
    lines[2] = '{"type":"x","seq":1,"time":0,"data":-0}';
    writeFileSync(file, lines.join('\n'));
    await expect(persistence.inspect(id)).rejects.toMatchObject({ code: 'PERSISTENCE_CORRUPT' });
    await persistence.close();
  });
});
