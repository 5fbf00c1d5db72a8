import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionId, SessionSeq } from '@strand/session';
import { closedTurn, createWritingSession, testHeader } from '@strand/test-support';
import { escapeSessionId } from './file-names.js';
import { decodeFrameIndex, encodeFrameIndex } from './frame-index.js';
import { openJsonlPersistence } from './jsonl-persistence.js';
import { decodeZstdLog } from './log-decoder.js';

const id = SessionId('indexed');
let root: string;
let logFile: string;
let indexFile: string;

beforeEach(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'strand-frame-index-'));
  logFile = path.join(root, 'sessions', escapeSessionId(id) + '.zst');
  indexFile = path.join(root, 'index', escapeSessionId(id) + '.idx');
  const persistence = await openJsonlPersistence({ root, scanWorker: false });
  const session = await createWritingSession(persistence, testHeader(id));
  for (const prompt of ['one', 'two', 'three', 'four']) await session.append(closedTurn(prompt));
  await persistence.close(); // saves the sidecar index
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A fresh store: nothing remembered in memory, so `readFrom` consults the sidecar file. */
const reopen = () => openJsonlPersistence({ root, scanWorker: false });

describe('the frame index: written for a log of more than one frame', () => {
  it('a log of one events frame gets no sidecar, and reads of it (whole, from a seq) are its events', async () => {
    const single = SessionId('single-frame');
    const singleIndex = path.join(root, 'index', escapeSessionId(single) + '.idx');
    const writing = await openJsonlPersistence({ root, scanWorker: false });
    const session = await createWritingSession(writing, testHeader(single));
    await session.append(closedTurn('only'));
    await writing.close();
    expect(existsSync(indexFile)).toBe(true); // the four-frame log of `beforeEach`
    expect(existsSync(singleIndex)).toBe(false);
    const persistence = await reopen();
    const whole = (await persistence.inspect(single)).events;
    expect(whole.length).toBeGreaterThan(1);
    expect((await persistence.readFrom(single, SessionSeq(1))).events).toEqual(whole.slice(1));
    await persistence.close();
    // Nor is one written when a read finds none: that read cost what a read through it would.
    expect(existsSync(singleIndex)).toBe(false);
  });
});

describe('the frame index: one rule for a failed read', () => {
  it('a sidecar that does not decode is absent: readFrom reads the whole log and rebuilds it', async () => {
    const expected = (await (await reopen()).inspect(id)).events.slice(22);
    writeFileSync(indexFile, Buffer.from('not an index'));
    const persistence = await reopen();
    const suffix = await persistence.readFrom(id, SessionSeq(22));
    expect(suffix.events).toEqual(expected);
    const rebuilt = decodeFrameIndex(readFileSync(indexFile));
    expect(rebuilt?.frames).toEqual(decodeZstdLog(readFileSync(logFile), id).frames);
    await persistence.close();
  });

  it('a sidecar of another incarnation, or describing a longer file, is ignored', async () => {
    const clean = decodeZstdLog(readFileSync(logFile), id);
    const expected = clean.events.slice(11);
    for (const stale of [
      { incarnation: 'someone-else', coveredSize: clean.validEnd, frames: clean.frames },
      { incarnation: clean.record.incarnation, coveredSize: clean.validEnd + 1, frames: clean.frames },
    ]) {
      writeFileSync(indexFile, encodeFrameIndex(stale));
      const persistence = await reopen();
      expect((await persistence.readFrom(id, SessionSeq(11))).events).toEqual(expected);
      await persistence.close();
    }
  });

  it('a sidecar the storage cannot read is PERSISTENCE_IO, never a silent full read', async () => {
    rmSync(indexFile);
    mkdirSync(indexFile); // reading it fails with EISDIR: a real I/O error, not absence
    const persistence = await reopen();
    await expect(persistence.readFrom(id, SessionSeq(11))).rejects.toMatchObject({
      code: 'PERSISTENCE_IO',
      sessionId: id,
    });
    // Whole reads do not need the index and are unaffected.
    expect((await persistence.inspect(id)).events).toHaveLength(44);
    await persistence.close();
  });

  it('damage in the frames a tail read reads is judged by the whole read: the same error as inspect', async () => {
    const clean = decodeZstdLog(readFileSync(logFile), id);
    const bytes = readFileSync(logFile);
    const third = clean.frames[2]!;
    bytes[third.offset + 40]! ^= 0xff; // inside the third batch's zstd frame; a frame follows it
    writeFileSync(logFile, bytes);
    const persistence = await reopen();
    const inspected = await persistence.inspect(id).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(inspected).toMatchObject({ code: 'PERSISTENCE_CORRUPT', location: { byteOffset: third.offset } });
    await persistence.close();
    const fresh = await reopen(); // nothing learned from the inspect above
    await expect(fresh.readFrom(id, SessionSeq(third.firstSeq))).rejects.toMatchObject({
      code: 'PERSISTENCE_CORRUPT',
      location: { byteOffset: third.offset, seq: third.firstSeq },
    });
    await fresh.close();
  });
});
