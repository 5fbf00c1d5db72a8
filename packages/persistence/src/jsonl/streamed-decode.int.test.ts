import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  Session,
  SessionId,
  newSessionHeader,
  type SessionEvent,
  type SessionEventInput,
} from '@strand/session';
import { workloadBatches, workloadTurns } from '@strand/workload';
import { PersistenceError } from '../errors.js';
import { persistenceWriter } from '../preparation/persistence-writer.js';
import { openJsonlPersistence } from './jsonl-persistence.js';
import { decodeZstdLog } from './log-decoder.js';
import { STREAMED_DECODE_MIN_BYTES, decodeZstdLogStreamed } from './streamed-decode.js';

const id = SessionId('streamed');
let root: string;

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'strand-streamed-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

async function writeLog(
  batches: Iterable<SessionEventInput[]>,
): Promise<{ file: string; events: readonly SessionEvent[] }> {
  const persistence = await openJsonlPersistence({ root });
  const header = newSessionHeader({ id, createdAt: 1_700_000_000_000 });
  const { incarnation } = await persistence.create({ header });
  const session = new Session({ header, incarnation, writer: persistenceWriter(persistence, id) });
  for (const batch of batches) await session.append(batch);
  await persistence.close();
  const name = readdirSync(path.join(root, 'sessions'))[0]!;
  return { file: path.join(root, 'sessions', name), events: session.events };
}

async function streamed(file: string, signal?: AbortSignal, claimedSize?: number) {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    return await decodeZstdLogStreamed(handle, claimedSize ?? size, 'streamed', signal);
  } finally {
    await handle.close();
  }
}

function isDeepFrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  return Object.isFrozen(value) && Object.values(value).every(isDeepFrozen);
}

describe('streamed decode of .zst logs', () => {
  it('decodes exactly what the one exact decoder decodes (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 400 }), { minLength: 1, maxLength: 12 }),
        async (batchSizes) => {
          rmSync(path.join(root, 'sessions'), { recursive: true, force: true });
          const total = batchSizes.reduce((a, b) => a + b, 0);
          const batches: SessionEventInput[][] = [];
          let at = 0;
          const inputs = [...workloadBatches(3, Math.max(total, 1), Math.max(total, 1))].flat();
          for (const n of batchSizes) {
            batches.push(inputs.slice(at, at + n));
            at += n;
          }
          const { file, events } = await writeLog(batches);
          const exact = decodeZstdLog(readFileSync(file), 'streamed');
          const fast = await streamed(file);
          expect(fast).toBeDefined();
          expect(fast!.events).toEqual(events);
          expect(fast!.events).toEqual(exact.events);
          expect(fast!.frames).toEqual(exact.frames);
          expect(fast!.validEnd).toBe(exact.validEnd);
          expect(fast!.nextSeq).toBe(exact.nextSeq);
          expect(fast!.record).toEqual(exact.record);
          expect(fast!.events.every(isDeepFrozen)).toBe(true);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('a large log, including a frame bigger than the reusable buffer, is streamed and reads back exactly', async () => {
    // Batches of 6,000 events make frames of several MB: they take a buffer of their own.
    const { file, events } = await writeLog([
      ...workloadTurns(1, 3_000),
      ...workloadBatches(9, 12_000, 6_000),
    ]);
    const persistence = await openJsonlPersistence({ root });
    try {
      expect((await persistence.list())[0]!.storedBytes).toBeGreaterThan(STREAMED_DECODE_MIN_BYTES);
      const fast = await streamed(file);
      expect(fast).toBeDefined();
      expect(fast!.events).toEqual(events);
      const log = await persistence.inspect(id);
      expect(log.events).toEqual(events);
      expect(log.tornTail).toBe(false);
    } finally {
      await persistence.close();
    }
  });

  it('a file shorter than its stat said (truncated mid-read) is left to the exact decoder', async () => {
    const { file } = await writeLog(workloadTurns(6, 2_000));
    expect(await streamed(file, undefined, readFileSync(file).length + 4096)).toBeUndefined();
  });

  it('anything but a clean log goes to the exact decoder: torn tails, zero tails, flipped bytes, torn meta frames', async () => {
    const { file, events } = await writeLog(workloadTurns(2, 4_000));
    const bytes = readFileSync(file);
    const damaged: [string, Buffer][] = [
      ['torn final frame', bytes.subarray(0, bytes.length - 7)],
      ['zero tail', Buffer.concat([bytes, Buffer.alloc(4096)])],
      ['flipped byte mid-file', Buffer.from(bytes).fill(0xff, bytes.length >> 1, (bytes.length >> 1) + 1)],
      ['torn meta frame', bytes.subarray(0, bytes.length - ((bytes.length - 10) % 997))],
    ];
    for (const [what, content] of damaged) {
      writeFileSync(file, content);
      expect(await streamed(file), what).toBeUndefined();
      // The persistence result (events or typed error) is exactly the exact decoder's.
      let exact: unknown;
      try {
        exact = decodeZstdLog(Buffer.from(content), 'streamed').events;
      } catch (error) {
        exact = (error as PersistenceError).code;
      }
      const persistence = await openJsonlPersistence({ root });
      try {
        const got = await persistence.inspect(id).then(
          (log) => log.events,
          (error: unknown) => (error as PersistenceError).code,
        );
        expect(got, what).toEqual(exact);
        if (Array.isArray(got)) expect(events.slice(0, got.length)).toEqual(got);
      } finally {
        await persistence.close();
      }
    }
  });

  it('an abort mid-read rejects with PERSISTENCE_ABORTED', async () => {
    await writeLog(workloadTurns(4, 4_000));
    const persistence = await openJsonlPersistence({ root });
    try {
      const controller = new AbortController();
      const read = persistence.inspect(id, { signal: controller.signal });
      queueMicrotask(() => controller.abort());
      const error = await read.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(PersistenceError);
      expect((error as PersistenceError).code).toBe('PERSISTENCE_ABORTED');
    } finally {
      await persistence.close();
    }
  });
});
