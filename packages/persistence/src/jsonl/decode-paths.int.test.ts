import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionId, SessionSeq, type SessionEvent } from '@strand/session';
import { closedTurn, crashedTurn, createWritingSession, testHeader } from '@strand/test-support';
import { PersistenceError } from '../errors.js';
import { escapeSessionId } from './file-names.js';
import { encodeFrameIndex, frameContaining, type FrameIndex } from './frame-index.js';
import { openJsonlPersistence } from './jsonl-persistence.js';
import { decodePlainLog, decodeZstdLog, type DecodedLog } from './log-decoder.js';
import { decodedFromTransfer } from './scan-worker/from-transfer.js';
import { scanFileForTransfer } from './scan-worker/scan-file.js';
import { decodeZstdLogStreamed } from './streamed-decode.js';
import { readTail } from './tail-read.js';

/*
 * One property over the five JSONL decode paths: after a random truncation or bit flip of a
 * written log, each path either gives exactly what the one exact decoder gives (its events, or
 * its error with code and location), or declines — and then the store's answer is the exact
 * decoder's. The exact decoder is `decodeZstdLog` for `.zst` logs and `decodePlainLog` for plain
 * `.jsonl`. The worker path is run on this thread (`scanFileForTransfer` is what the worker
 * runs; the thread hand-off itself is covered by scan-worker.int.test.ts).
 */

// fast-check runs with the run's seed (test-support's setup file); a failure prints how to replay.
const RUNS = 120;
const id = SessionId('fuzzed');
const TYPES = ['turn/start', 'user/message', 'step/start', 'assistant/message', 'tool/call', 'tool/result'];

interface BaseLog {
  readonly bytes: Buffer;
  readonly clean: DecodedLog;
}

type Outcome =
  | { readonly ok: true; readonly log: DecodedLog }
  | { readonly ok: false; readonly error: { code: string; location: unknown } };

function outcome(decode: () => DecodedLog): Outcome {
  try {
    return { ok: true, log: decode() };
  } catch (error) {
    if (!(error instanceof PersistenceError)) throw error;
    return { ok: false, error: { code: error.code, location: error.location } };
  }
}

async function outcomeOf(read: () => Promise<unknown>): Promise<{ ok: true; value: unknown } | Outcome> {
  try {
    return { ok: true, value: await read() } as const;
  } catch (error) {
    if (!(error instanceof PersistenceError)) throw error;
    return { ok: false, error: { code: error.code, location: error.location } };
  }
}

/** A scan's events agree with the full ones: equal, or an unrequested type's data elided. */
function expectScanAgrees(
  scanned: readonly SessionEvent[],
  full: readonly SessionEvent[],
  dataTypes: Set<string>,
) {
  expect(scanned.length).toBe(full.length);
  scanned.forEach((event, i) => {
    const exact = full[i]!;
    if (event.data === null && !dataTypes.has(event.type))
      expect({ ...event, data: exact.data }).toEqual(exact);
    else expect(event).toEqual(exact);
  });
}

function expectSameLog(got: DecodedLog, exact: DecodedLog): void {
  expect(got.record).toEqual(exact.record);
  expect(got.events).toEqual(exact.events);
  expect(got.frames).toEqual(exact.frames);
  expect({ validEnd: got.validEnd, nextSeq: got.nextSeq, tornTail: got.tornTail }).toEqual({
    validEnd: exact.validEnd,
    nextSeq: exact.nextSeq,
    tornTail: exact.tornTail,
  });
}

let root: string;
const bases: Record<'zstd' | 'none', BaseLog[]> = { zstd: [], none: [] };

/** Logs of several shapes: many small frames, a crashed open turn, a single batch. */
async function writeBases(compression: 'zstd' | 'none'): Promise<BaseLog[]> {
  const shapes = [
    [closedTurn('one'), closedTurn('two'), closedTurn('three'), closedTurn('four')],
    [closedTurn('before the crash'), crashedTurn('crashed', ['c1', 'c2'])],
    [[...closedTurn('alone'), ...closedTurn('together')]],
  ];
  const out: BaseLog[] = [];
  for (const batches of shapes) {
    const dir = mkdtempSync(path.join(root, 'base-'));
    const persistence = await openJsonlPersistence({ root: dir, compression, scanWorker: false });
    const session = await createWritingSession(persistence, testHeader(id));
    for (const batch of batches) await session.append(batch);
    await persistence.close();
    const name = readdirSync(path.join(dir, 'sessions'))[0]!;
    const bytes = readFileSync(path.join(dir, 'sessions', name));
    out.push({ bytes, clean: compression === 'zstd' ? decodeZstdLog(bytes, id) : decodePlainLog(bytes, id) });
  }
  return out;
}

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'strand-decode-paths-'));
  bases.zstd = await writeBases('zstd');
  bases.none = await writeBases('none');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const damage = fc.record({
  base: fc.nat(),
  kind: fc.constantFrom('truncate', 'flip', 'cut-at-frame'),
  at: fc.nat(),
  bit: fc.integer({ min: 0, max: 7 }),
  from: fc.nat(),
  dataTypes: fc.subarray(TYPES),
});
type Damage = typeof damage extends fc.Arbitrary<infer T> ? T : never;

/**
 * The damaged bytes: cut anywhere, one bit flipped, or cut at a frame (line) boundary — a log a
 * crash could leave that every path must read as clean, so the fast paths answer too.
 */
function damaged(base: BaseLog, d: Damage): { bytes: Buffer; at: number } {
  const { bytes } = base;
  if (d.kind === 'cut-at-frame') {
    const ends = [...base.clean.frames.map((f) => f.offset), base.clean.validEnd];
    const at = ends[d.at % ends.length]!;
    return { bytes: Buffer.from(bytes.subarray(0, at)), at };
  }
  const at = d.at % bytes.length;
  if (d.kind === 'truncate') return { bytes: Buffer.from(bytes.subarray(0, at)), at };
  const copy = Buffer.from(bytes);
  copy[at]! ^= 1 << d.bit;
  return { bytes: copy, at };
}

/** A fresh store holding only the damaged log (and, for `.zst`, the clean log's frame index). */
async function storeWith(compression: 'zstd' | 'none', bytes: Buffer, index: FrameIndex | undefined) {
  const dir = mkdtempSync(path.join(root, 'run-'));
  const persistence = await openJsonlPersistence({ root: dir, compression, scanWorker: false });
  const file = path.join(dir, 'sessions', escapeSessionId(id) + (compression === 'zstd' ? '.zst' : '.jsonl'));
  writeFileSync(file, bytes);
  if (index !== undefined)
    writeFileSync(path.join(dir, 'index', escapeSessionId(id) + '.idx'), encodeFrameIndex(index));
  return { persistence, file, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

describe('the five JSONL decode paths on damaged logs', () => {
  it('.zst: streamed, worker and tail-via-index each equal the exact decoder or decline to it (property)', async () => {
    const answered = { streamed: 0, worker: 0, tail: 0, tailDeclined: 0 };
    await fc.assert(
      fc.asyncProperty(damage, async (d) => {
        const base = bases.zstd[d.base % bases.zstd.length]!;
        const { bytes, at } = damaged(base, d);
        const dataTypes = new Set(d.dataTypes);
        const from = d.from % (base.clean.nextSeq + 1);
        const index: FrameIndex = {
          incarnation: base.clean.record.incarnation,
          coveredSize: base.clean.validEnd,
          frames: base.clean.frames,
        };
        const exact = outcome(() => decodeZstdLog(bytes, id));
        const store = await storeWith('zstd', bytes, index);
        try {
          // Streamed (whole reads of large logs): exact's log, or declined.
          const handle = await open(store.file, 'r');
          const streamed = await decodeZstdLogStreamed(handle, bytes.length, id, undefined).finally(() =>
            handle.close(),
          );
          if (streamed !== undefined) {
            answered.streamed++;
            expect(exact.ok).toBe(true);
            if (exact.ok) expectSameLog(streamed, exact.log);
          }

          // Worker (scans of mid-sized logs): exact's log with unrequested data elided, or declined.
          const transfer = scanFileForTransfer(store.file, dataTypes);
          const worker = transfer === undefined ? undefined : decodedFromTransfer(transfer, id);
          if (worker !== undefined) {
            answered.worker++;
            expect(exact.ok).toBe(true);
            if (exact.ok) {
              expectScanAgrees(worker.events, exact.log.events, dataTypes);
              expect(worker.frames).toEqual(exact.log.frames);
              expect(worker.nextSeq).toBe(exact.log.nextSeq);
              expect(worker.tornTail).toBe(false);
            }
          }

          // Tail via the index (readFrom): exact's suffix, or declined. It reads only the header and
          // the frames from `from` on, so damage before those frames is not its to see: there it
          // must return exactly what was written.
          const tail = await readTail(id, store.file, index, from, undefined);
          const start =
            from >= (index.frames.at(-1)?.firstSeq ?? 0) + (index.frames.at(-1)?.count ?? 0)
              ? index.coveredSize
              : index.frames[frameContaining(index.frames, from)]!.offset;
          const headerEnd = index.frames[0]?.offset ?? index.coveredSize;
          const unread = d.kind === 'flip' && at >= headerEnd && at < start;
          const written = unread ? base.clean : exact.ok ? exact.log : undefined;
          if (tail === undefined) answered.tailDeclined++;
          else {
            answered.tail++;
            expect(written).toBeDefined();
            expect(tail.events).toEqual(written!.events.filter((e) => e.seq >= from));
            expect(tail.nextSeq).toBe(written!.nextSeq);
            expect(tail.record).toEqual(written!.record);
          }

          // The store, with every fast path free to decline: the exact decoder's answer.
          const inspected = await outcomeOf(() => store.persistence.inspect(id));
          const scanned = await outcomeOf(() => store.persistence.scan(id, { dataTypes }));
          if (!exact.ok) {
            expect(inspected).toEqual(exact);
            expect(scanned).toEqual(exact);
          } else {
            expect(inspected.ok && (inspected as { value: { events: unknown } }).value.events).toEqual(
              exact.log.events,
            );
            expect(scanned.ok).toBe(true);
            if (scanned.ok && 'value' in scanned)
              expectScanAgrees(
                (scanned.value as { events: SessionEvent[] }).events,
                exact.log.events,
                dataTypes,
              );
          }
          const suffix = await outcomeOf(() => store.persistence.readFrom(id, SessionSeq(from)));
          if (written !== undefined && (unread || exact.ok)) {
            expect(suffix.ok).toBe(true);
            if (suffix.ok && 'value' in suffix)
              expect((suffix.value as { events: unknown }).events).toEqual(
                written.events.filter((e) => e.seq >= from),
              );
          } else {
            expect(suffix).toEqual(exact);
          }
        } finally {
          await store.persistence.close();
          store.dispose();
        }
      }),
      { numRuns: RUNS },
    );
    console.log(`decode-paths fuzz (.zst, ${RUNS} runs): answered ${JSON.stringify(answered)}`);
    // Not vacuous: cuts at frame boundaries are clean logs every fast path reads; a random cut
    // lands after a tail's first frame (answered) or before it (declined).
    expect(answered.streamed).toBeGreaterThan(0);
    expect(answered.worker).toBeGreaterThan(0);
    expect(answered.tail).toBeGreaterThan(0);
    expect(answered.tailDeclined).toBeGreaterThan(0);
  });

  it('plain .jsonl: the plain decoder from a seq, and the store, equal the exact decoder (property)', async () => {
    await fc.assert(
      fc.asyncProperty(damage, async (d) => {
        const base = bases.none[d.base % bases.none.length]!;
        const { bytes } = damaged(base, d);
        const from = d.from % (base.clean.nextSeq + 1);
        const exact = outcome(() => decodePlainLog(bytes, id));
        const fromSeq = outcome(() => decodePlainLog(bytes, id, from));
        if (!exact.ok) expect(fromSeq).toEqual(exact);
        else {
          expect(fromSeq.ok).toBe(true);
          if (fromSeq.ok) {
            expect(fromSeq.log.events).toEqual(exact.log.events.filter((e) => e.seq >= from));
            expect({ ...fromSeq.log, events: [] }).toEqual({ ...exact.log, events: [] });
          }
        }
        const store = await storeWith('none', bytes, undefined);
        try {
          const inspected = await outcomeOf(() => store.persistence.inspect(id));
          const suffix = await outcomeOf(() => store.persistence.readFrom(id, SessionSeq(from)));
          if (!exact.ok) {
            expect(inspected).toEqual(exact);
            expect(suffix).toEqual(exact);
          } else {
            expect(inspected.ok && (inspected as { value: { events: unknown } }).value.events).toEqual(
              exact.log.events,
            );
            expect(suffix.ok && (suffix as { value: { events: unknown } }).value.events).toEqual(
              exact.log.events.filter((e) => e.seq >= from),
            );
          }
        } finally {
          await store.persistence.close();
          store.dispose();
        }
      }),
      { numRuns: RUNS },
    );
  });
});
