import { mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openJsonlPersistence } from '@strand/persistence';
import { SessionId } from '@strand/session';
import { PACKAGE_SRC } from '../testing/fixture-dirs.js';
import { openLiveBed, settled, type LiveBed } from '../testing/live-bed.js';
import { importTranscripts } from '../run/import-transcripts.js';
import type { LiveIngest } from './live-ingest.js';

/**
 * Two files that hold one Claude Code session (the harness copies a transcript when a session is
 * resumed or forked: the copy starts with the original's lines), seen by live ingest one after
 * the other: the session ends as the one-shot import of the folder has it — the longer copy —
 * whichever came first, and stays so across restarts; what is reported names both files and
 * never calls a second copy a rewrite.
 */
const SID = '7c7c7c7c-1111-4222-8333-444455556666';
const ID = SessionId(`claude-${SID}`);
const LINES = readFileSync(
  path.join(PACKAGE_SRC, 'claude-code', 'fixtures', 'flat-2.0', '-home-dev-tool', `${SID}.jsonl`),
  'utf8',
)
  .trimEnd()
  .split('\n');

let bed: LiveBed;
let short: string;
let long: string;

beforeEach(async () => {
  bed = await openLiveBed('strand-live-copies-', 'claude-code');
  const dir = path.join(bed.ws.source, '-home-dev-tool');
  mkdirSync(dir, { recursive: true });
  short = path.join(dir, `${SID}.jsonl`);
  // The copy is named by the session that copied it; its lines still name the original.
  long = path.join(dir, '8d8d8d8d-1111-4222-8333-444455556666.jsonl');
});

afterEach(() => bed.close());

const writeShort = (): void => writeFileSync(short, `${LINES.slice(0, 4).join('\n')}\n`);
const writeLong = (): void => writeFileSync(long, `${LINES.join('\n')}\n`);

/** The session's events as a fresh one-shot import of the source folder writes them. */
async function oneShotEvents(): Promise<unknown[]> {
  const fresh = path.join(bed.ws.root, `fresh-${Math.random().toString(36).slice(2)}`);
  await importTranscripts({ harness: 'claude-code', sourceDir: bed.ws.source, dataDir: fresh });
  const persistence = await openJsonlPersistence({ root: fresh });
  try {
    return (await persistence.inspect(ID)).events.map(({ type, data }) => ({ type, data }));
  } finally {
    await persistence.close();
  }
}

const storedEvents = async (): Promise<unknown[]> =>
  (await bed.persistence.inspect(ID)).events.map(({ type, data }) => ({ type, data }));

const startWatching = (): Promise<LiveIngest> =>
  bed.start({
    dataDir: bed.ws.data,
    catchUp: async () => {
      await importTranscripts({ harness: 'claude-code', sourceDir: bed.ws.source, dataDir: bed.ws.data });
    },
  });

/** A restart of `serve --watch` (catch-up, then watching), with the short copy touched meanwhile. */
async function restartKeepsTheLongCopy(want: unknown[]): Promise<void> {
  await bed.stop();
  const later = new Date(Date.now() + 60_000);
  utimesSync(short, later, later);
  const again = await startWatching();
  await again.idle();
  expect(await storedEvents()).toEqual(want);
  expect(bed.reports.filter((r) => r.kind === 'replaced')).toEqual([]);
}

describe('live ingest of two copies of one Claude Code session', () => {
  it('short copy first, then the long one: the session ends as the long copy, and the report names both files', async () => {
    writeShort();
    const live = await startWatching();
    expect((await storedEvents()).length).toBeGreaterThan(0);
    const { incarnation } = await bed.persistence.inspect(ID);
    writeLong();
    const want = await oneShotEvents();
    await settled(live, async () => (await storedEvents()).length === want.length);
    expect(await storedEvents()).toEqual(want);
    expect((await bed.persistence.inspect(ID)).incarnation).toBe(incarnation); // an extension: appended
    expect(bed.reports.filter((r) => r.kind === 'replaced')).toEqual([]);
    const told = bed.reports.filter((r) => r.reason.includes(`session ${ID}`));
    expect(told).toEqual([
      expect.objectContaining({ file: long, reason: expect.stringContaining(short) as string }),
    ]);
    expect(told[0]!.reason).not.toContain('rewritten in place');
    await restartKeepsTheLongCopy(want);
  });

  it('long copy first, then the short one: the long copy is kept, and the short one reported as a copy of it', async () => {
    writeLong();
    const live = await startWatching();
    const want = await oneShotEvents();
    expect(await storedEvents()).toEqual(want);
    writeShort();
    await settled(live, () => bed.reports.some((r) => r.file === short));
    expect(await storedEvents()).toEqual(want);
    expect(bed.reports.filter((r) => r.file === short)).toEqual([
      expect.objectContaining({
        kind: 'skipped-file',
        reason: expect.stringContaining(long) as string,
      }),
    ]);
    expect(bed.reports.filter((r) => r.kind === 'replaced')).toEqual([]);
    await restartKeepsTheLongCopy(want);
  });

  it('a copy that is no extension of the stored session (another branch) replaces it only when it holds more, and says it is another copy', async () => {
    writeShort();
    const live = await startWatching();
    // A fork rewrites a line of the history it copies: not an extension of what the short copy wrote.
    writeFileSync(
      long,
      `${[LINES[0]!.replace('"content":"', '"content":"(forked) '), ...LINES.slice(1)].join('\n')}\n`,
    );
    const want = await oneShotEvents();
    await settled(live, () => bed.reports.some((r) => r.file === long));
    expect(await storedEvents()).toEqual(want);
    const told = bed.reports.filter((r) => r.file === long);
    expect(told).toEqual([
      expect.objectContaining({ kind: 'replaced', reason: expect.stringContaining(short) as string }),
    ]);
    expect(told[0]!.reason).not.toContain('rewritten in place');
  });
});

describe('live ingest of two copies of one Claude Code session, across restarts', () => {
  const appendToShort = (): void =>
    writeFileSync(
      short,
      `${[...LINES.slice(0, 4), JSON.stringify({ type: 'last-prompt', sessionId: SID })].join('\n')}\n`,
    );

  it('a copy caught half-written that grows past the original: after a restart, the original changing again does not take the session back', async () => {
    writeShort();
    writeFileSync(long, `${LINES.slice(0, 2).join('\n')}\n`);
    const live = await startWatching();
    writeLong();
    const want = await oneShotEvents();
    await settled(live, async () => (await storedEvents()).length === want.length);
    await bed.stop();
    const again = await startWatching();
    // Claude Code writes a side record to the original session's file.
    appendToShort();
    await settled(again, () => bed.reports.some((r) => r.file === short));
    expect(await storedEvents()).toEqual(want);
    expect(bed.reports.filter((r) => r.kind === 'replaced')).toEqual([]);
  });

  /**
   * Two runs that each saw one copy (as a folder imported before copies were chosen live): the
   * ledger has both files holding the session, and the stored log is what the short copy wrote.
   */
  async function contestedDataFolder(): Promise<unknown[]> {
    short = path.join(bed.ws.source, 'old', `${SID}.jsonl`);
    mkdirSync(path.dirname(short), { recursive: true });
    writeLong();
    writeShort();
    await importTranscripts({ harness: 'claude-code', sourceDir: path.dirname(long), dataDir: bed.ws.data });
    await importTranscripts({ harness: 'claude-code', sourceDir: path.dirname(short), dataDir: bed.ws.data });
    const want = await oneShotEvents();
    expect((await storedEvents()).length).toBeLessThan(want.length);
    return want;
  }

  it('a data folder where both copies hold the session and the short one wrote last is mended by the next one-shot import', async () => {
    const want = await contestedDataFolder();
    const summary = await importTranscripts({
      harness: 'claude-code',
      sourceDir: bed.ws.source,
      dataDir: bed.ws.data,
    });
    expect(await storedEvents()).toEqual(want);
    expect(summary.reports).toEqual([
      expect.objectContaining({
        file: short,
        kind: 'skipped-file',
        reason: expect.stringContaining(long) as string,
      }),
    ]);
    await restartKeepsTheLongCopy(want);
  });

  it('such a data folder is mended by live ingest started without a catch-up: the long copy is read again', async () => {
    const want = await contestedDataFolder();
    const live = await bed.start({ dataDir: bed.ws.data });
    await live.idle();
    expect(await storedEvents()).toEqual(want);
    expect(bed.reports).toEqual([
      expect.objectContaining({ file: long, kind: 'note', reason: expect.stringContaining(short) as string }),
    ]);
    await restartKeepsTheLongCopy(want);
  });
});
