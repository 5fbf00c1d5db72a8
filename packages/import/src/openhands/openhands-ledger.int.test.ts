import { cpSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Ledger } from '../ledger/ledger.js';
import { importTranscripts } from '../run/import-transcripts.js';
import { PACKAGE_SRC, readStore, workspace, type Workspace } from '../testing/fixture-dirs.js';

const SYNTHETIC = '5f2b0c9e8a7d4c3b9e1f0a2b3c4d5e6f';
const FIXTURE = path.join(PACKAGE_SRC, 'openhands', 'fixtures', 'synthetic', SYNTHETIC);
/** The fixture's last event files, held back to be written the way OpenHands adds events. */
const LATER = /^(18|19|20)\.json$/;

let open: Workspace[] = [];
afterEach(() => {
  for (const w of open) w.dispose();
  open = [];
});

/** A store holding the synthetic conversation without its last two events. */
function conversation(): { w: Workspace; dir: string; events: string } {
  const w = workspace('strand-openhands-ledger-');
  open.push(w);
  const dir = path.join(w.source, SYNTHETIC);
  cpSync(FIXTURE, dir, { recursive: true, filter: (f) => !LATER.test(path.basename(f)) });
  const events = path.join(dir, 'events');
  // A whole second: `keepMtime` gives it back exactly (a Date keeps milliseconds, a file system
  // nanoseconds — a sub-millisecond mtime put back through a Date would move).
  utimesSync(events, FOLDER_TIME, FOLDER_TIME);
  return { w, dir, events };
}

const FOLDER_TIME = new Date(Date.UTC(2026, 0, 1));

const importOnce = (w: Workspace, now?: () => number) =>
  importTranscripts({ harness: 'openhands', sourceDir: w.source, dataDir: w.data, ...(now ? { now } : {}) });

/** A run's clock: a minute after the folder's last change (its stat may stand for its listing). */
const aMinuteAfter = (folder: string) => () => statSync(folder).ctimeMs + 60_000;
/** A run's clock: within the clock tick of the folder's last change (its stat may not). */
const sameTick = (folder: string) => () => statSync(folder).ctimeMs + 5;

async function ledgerEntry(w: Workspace, dir: string) {
  const { ledger } = await Ledger.load(w.data);
  return ledger.get(path.join(dir, 'events', '0.json'));
}

/** Gives a folder back the mtime it had: a clock too coarse to tell two writes apart. */
function keepMtime(folder: string, change: () => void): void {
  const before = statSync(folder);
  change();
  utimesSync(folder, before.atime, before.mtime);
}

/** The stored conversation's events, as text. */
async function said(w: Workspace): Promise<string> {
  return JSON.stringify((await readStore(w.data)).get(`openhands-${SYNTHETIC}`)!.events);
}

const fixtureEvent = (name: string): string => readFileSync(path.join(FIXTURE, 'events', name), 'utf8');

describe('OpenHands re-import: an unchanged conversation is told by its events folder', () => {
  it('a conversation read whole is kept by folder: its listing and mtime and metadata.json, no event file', async () => {
    const { w, dir, events } = conversation();
    expect((await importOnce(w, sameTick(events))).imported).toBe(1);
    const entry = await ledgerEntry(w, dir);
    expect(entry?.folder).toEqual({ path: events, size: 18, mtimeMs: statSync(events).mtimeMs });
    expect(entry?.companions.map((c) => path.basename(c.path))).toEqual(['metadata.json']);
    expect(await importOnce(w, sameTick(events))).toMatchObject({ imported: 0, updated: 0, unchanged: 1 });
  });

  it('a folder last changed well before the run keeps its ctime too: its stat then stands for its listing', async () => {
    const { w, dir, events } = conversation();
    expect((await importOnce(w, aMinuteAfter(events))).imported).toBe(1);
    const { mtimeMs, ctimeMs } = statSync(events);
    expect((await ledgerEntry(w, dir))?.folder).toEqual({ path: events, size: 18, mtimeMs, ctimeMs });
    expect(await importOnce(w, aMinuteAfter(events))).toMatchObject({
      imported: 0,
      updated: 0,
      unchanged: 1,
    });
  });

  it('a folder kept without its ctime (changed in the run’s clock tick) gets it once listed and found the same', async () => {
    const { w, dir, events } = conversation();
    await importOnce(w, sameTick(events));
    expect((await ledgerEntry(w, dir))?.folder?.ctimeMs).toBeUndefined();
    expect(await importOnce(w, aMinuteAfter(events))).toMatchObject({ unchanged: 1 });
    expect((await ledgerEntry(w, dir))?.folder?.ctimeMs).toBe(statSync(events).ctimeMs);
  });

  it('a new event file is a change, even where the folder mtime does not move (its listing grew)', async () => {
    const { w, events } = conversation();
    await importOnce(w);
    keepMtime(events, () => writeFileSync(path.join(events, '18.json'), fixtureEvent('18.json')));
    expect(await importOnce(w)).toMatchObject({ updated: 1, replaced: 0, unchanged: 0 });
    expect(await said(w)).toContain('One more thing.');
  });

  it('a rewritten metadata.json is a change (OpenHands rewrites it in place)', async () => {
    const { w, dir } = conversation();
    await importOnce(w);
    const metadata = path.join(dir, 'metadata.json');
    writeFileSync(metadata, readFileSync(metadata, 'utf8').replace('Picture and files', 'Picture, files'));
    const again = await importOnce(w);
    expect(again.unchanged).toBe(0);
    const log = (await readStore(w.data)).get(`openhands-${SYNTHETIC}`)!;
    expect(log.events.filter((e) => e.type === 'session/title').at(-1)!.data).toEqual({
      title: 'Picture, files',
    });
  });

  it('an event file cut mid-write keeps every file stamped, so its completion in place is seen', async () => {
    // `LocalFileStore.write` opens the file and writes into it: an import may read it half-written,
    // and its completion moves neither the folder's listing nor its mtime. `add_event` writes
    // outside its lock, so the next event's file may be whole already: the cut one is not the newest.
    const { w, dir, events } = conversation();
    const whole = fixtureEvent('18.json');
    writeFileSync(path.join(events, '18.json'), whole.slice(0, whole.length >> 1));
    writeFileSync(path.join(events, '19.json'), fixtureEvent('19.json'));
    const first = await importOnce(w);
    expect(first.reports.map((r) => r.kind)).toEqual(['skipped-record']);
    expect((await ledgerEntry(w, dir))?.folder).toBeUndefined();
    expect(await said(w)).not.toContain('One more thing.');
    keepMtime(events, () => writeFileSync(path.join(events, '18.json'), whole));
    const again = await importOnce(w);
    expect(again).toMatchObject({ updated: 1, unchanged: 0 });
    expect(again.reports).toEqual([]);
    expect(await said(w)).toContain('One more thing.');
    expect((await ledgerEntry(w, dir))?.folder).toBeDefined();
  });

  it('an event file removed is a change, even where the folder mtime does not move (its listing shrank)', async () => {
    const { w, events } = conversation();
    await importOnce(w);
    keepMtime(events, () => rmSync(path.join(events, '17.json')));
    expect((await importOnce(w)).unchanged).toBe(0);
    expect((await importOnce(w)).unchanged).toBe(1);
  });

  it('an event file rewritten in place, the folder untouched, is not seen: OpenHands writes each event once', async () => {
    // The documented limit of a ledger kept by folder (docs/transcript-formats.md): no event file is
    // statted, so only a change of the folder's listing or mtime, or of metadata.json, is seen.
    const { w, events } = conversation();
    await importOnce(w);
    for (const name of ['0.json', '17.json']) {
      const file = path.join(events, name);
      keepMtime(events, () => writeFileSync(file, `${readFileSync(file, 'utf8')} `));
    }
    expect(await importOnce(w)).toMatchObject({ imported: 0, updated: 0, unchanged: 1 });
  });

  it('an event file replaced under its name (renamed over) is found by the folder mtime and the digests', async () => {
    const { w, events } = conversation();
    await importOnce(w);
    const target = path.join(events, '13.json');
    const text = readFileSync(target, 'utf8');
    // Same size, other bytes: only the folder's mtime (the rename) and then the digest tell.
    const edited = text.replace('Summarize everything.', 'Summarize it all now.');
    expect(edited.length).toBe(text.length);
    writeFileSync(path.join(events, 'tmp'), edited);
    const { mtime } = statSync(events);
    renameSync(path.join(events, 'tmp'), target);
    utimesSync(events, mtime, new Date(mtime.getTime() + 5_000));
    expect((await importOnce(w)).unchanged).toBe(0);
    expect(await said(w)).toContain('Summarize it all now.');
  });

  it('a folder mtime moved with nothing changed (a file created and removed) is not mapped again', async () => {
    const { w, events } = conversation();
    await importOnce(w);
    const { mtime } = statSync(events);
    utimesSync(events, mtime, new Date(mtime.getTime() + 5_000));
    expect(await importOnce(w)).toMatchObject({ imported: 0, updated: 0, unchanged: 1 });
    expect(await importOnce(w)).toMatchObject({ unchanged: 1 });
  });
});

/**
 * Gives the ledger's record of the conversation the folder's stat as it is now — mtime, and ctime
 * where the record keeps one — but not the listing: the state a run leaves when an event file is
 * created after it listed the folder, within the clock tick of its stat (mtime and ctime unmoved).
 */
async function raceLeavesStat(w: Workspace, dir: string, events: string): Promise<void> {
  const { ledger } = await Ledger.load(w.data);
  const file = path.join(events, '0.json');
  const entry = ledger.get(file)!;
  const { mtimeMs, ctimeMs } = statSync(events);
  const folder = { ...entry.folder!, mtimeMs, ...(entry.folder!.ctimeMs === undefined ? {} : { ctimeMs }) };
  ledger.set(file, { ...entry, folder });
  await ledger.save();
  expect((await ledgerEntry(w, dir))?.folder?.mtimeMs).toBe(mtimeMs);
}

describe('OpenHands re-import: a folder whose stat stands for its listing is not listed', () => {
  it('a record taken in the clock tick of the folder’s last change is listed again: an event file the listing missed is seen', async () => {
    // The run that recorded it could not tell a file created after its listing, in the same tick:
    // the folder's mtime and ctime would not move. Such a record keeps no ctime, and is listed.
    const { w, dir, events } = conversation();
    await importOnce(w, sameTick(events));
    writeFileSync(path.join(events, '18.json'), fixtureEvent('18.json'));
    await raceLeavesStat(w, dir, events);
    expect(await importOnce(w, aMinuteAfter(events))).toMatchObject({ updated: 1, unchanged: 0 });
    expect(await said(w)).toContain('One more thing.');
  });

  it('a record whose stat stands for the listing is not listed: a change that moved neither mtime nor ctime is not seen', async () => {
    // The limit the clock rules out (a change in a later tick moves both): what proves the folder
    // was not listed — a listing would count 19 files, not the 18 recorded.
    const { w, dir, events } = conversation();
    await importOnce(w, aMinuteAfter(events));
    writeFileSync(path.join(events, '18.json'), fixtureEvent('18.json'));
    await raceLeavesStat(w, dir, events);
    expect(await importOnce(w, aMinuteAfter(events))).toMatchObject({ updated: 0, unchanged: 1 });
    expect(await said(w)).not.toContain('One more thing.');
  });

  describe.each([
    ['its stat standing for its listing', aMinuteAfter],
    ['listed again (changed in the run’s clock tick)', sameTick],
  ])('every change OpenHands (or a copy) makes is seen, the folder kept with %s', (_, clock) => {
    /** The conversation imported once; the ledger's record checked to be of the kind named. */
    async function imported() {
      const c = conversation();
      await importOnce(c.w, clock(c.events));
      const ctimeMs = (await ledgerEntry(c.w, c.dir))?.folder?.ctimeMs;
      expect(ctimeMs).toBe(clock === aMinuteAfter ? statSync(c.events).ctimeMs : undefined);
      return c;
    }

    it('a new event file', async () => {
      const { w, events } = await imported();
      writeFileSync(path.join(events, '18.json'), fixtureEvent('18.json'));
      expect(await importOnce(w, clock(events))).toMatchObject({ updated: 1, unchanged: 0 });
      expect(await said(w)).toContain('One more thing.');
      expect(await importOnce(w, clock(events))).toMatchObject({ updated: 0, unchanged: 1 });
    });

    it('a new event file, the folder’s mtime given back (its ctime moves)', async () => {
      const { w, events } = await imported();
      keepMtime(events, () => writeFileSync(path.join(events, '18.json'), fixtureEvent('18.json')));
      expect(await importOnce(w, clock(events))).toMatchObject({ updated: 1, unchanged: 0 });
      expect(await said(w)).toContain('One more thing.');
    });

    it('a removed event file', async () => {
      const { w, events } = await imported();
      rmSync(path.join(events, '17.json'));
      expect((await importOnce(w, clock(events))).unchanged).toBe(0);
    });

    it('metadata.json rewritten in place (the folder untouched)', async () => {
      const { w, dir, events } = await imported();
      const metadata = path.join(dir, 'metadata.json');
      writeFileSync(metadata, readFileSync(metadata, 'utf8').replace('Picture and files', 'Picture, files'));
      expect((await importOnce(w, clock(events))).unchanged).toBe(0);
      const titles = (await readStore(w.data))
        .get(`openhands-${SYNTHETIC}`)!
        .events.filter((e) => e.type === 'session/title');
      expect(titles.at(-1)!.data).toEqual({ title: 'Picture, files' });
    });

    it('metadata.json written where there was none (the headless CLI writes none)', async () => {
      const { w, dir, events } = conversation();
      const metadata = path.join(dir, 'metadata.json');
      const text = readFileSync(metadata, 'utf8');
      rmSync(metadata);
      await importOnce(w, clock(events));
      expect(await said(w)).not.toContain('Picture and files');
      writeFileSync(metadata, text);
      expect((await importOnce(w, clock(events))).unchanged).toBe(0);
      expect(await said(w)).toContain('Picture and files');
    });

    it('metadata.json removed', async () => {
      const { w, dir, events } = await imported();
      rmSync(path.join(dir, 'metadata.json'));
      expect((await importOnce(w, clock(events))).unchanged).toBe(0);
      expect((await ledgerEntry(w, dir))?.companions).toEqual([]);
    });

    it('a removed conversation leaves the ledger (its session stays stored)', async () => {
      const { w, dir, events } = await imported();
      const now = clock(events)();
      rmSync(dir, { recursive: true });
      expect(await importOnce(w, () => now)).toMatchObject({ files: 0, unchanged: 0, failed: 0 });
      expect(await ledgerEntry(w, dir)).toBeUndefined();
      expect((await readStore(w.data)).has(`openhands-${SYNTHETIC}`)).toBe(true);
    });

    it('the conversation replaced by a copy with one more event, its folder’s mtime kept (cp -p, a restore)', async () => {
      const { w, dir, events } = await imported();
      rmSync(dir, { recursive: true });
      cpSync(FIXTURE, dir, { recursive: true, filter: (f) => !/^(19|20)\.json$/.test(path.basename(f)) });
      utimesSync(events, FOLDER_TIME, FOLDER_TIME);
      expect(await importOnce(w, clock(events))).toMatchObject({ updated: 1, unchanged: 0 });
      expect(await said(w)).toContain('One more thing.');
    });
  });

  it('two unchanged copies that both claim the conversation are read again whole, not as their first event', async () => {
    // A ledger from before live ingest marked the copy it dropped: both copies are peeked and
    // chosen between again — their folders listed, though their stats stand for their listings.
    const w = workspace('strand-openhands-ledger-');
    open.push(w);
    const copies = ['a', 'b'].map((user) => path.join(w.source, 'users', user, 'conversations', SYNTHETIC));
    for (const dir of copies) {
      cpSync(FIXTURE, dir, { recursive: true, filter: (f) => !LATER.test(path.basename(f)) });
      utimesSync(path.join(dir, 'events'), FOLDER_TIME, FOLDER_TIME);
    }
    const clock = aMinuteAfter(path.join(copies[1]!, 'events'));
    expect(await importOnce(w, clock)).toMatchObject({ imported: 1, skipped: 1 });
    const before = await said(w);
    const { ledger } = await Ledger.load(w.data);
    const files = copies.map((dir) => path.join(dir, 'events', '0.json'));
    // The copy imported is kept by folder, its stat standing for its listing: not listed by discovery.
    const winner = files.find((file) => ledger.get(file)!.duplicateOf === undefined)!;
    const { hash, folder } = ledger.get(winner)!;
    expect(folder).toMatchObject({ size: 18, ctimeMs: expect.any(Number) });
    for (const file of files) {
      const { duplicateOf: _dropped, ...entry } = ledger.get(file)!;
      ledger.set(file, entry);
    }
    await ledger.save();
    expect(await importOnce(w, clock)).toMatchObject({ replaced: 0, failed: 0 });
    expect(await said(w)).toBe(before);
    const again = (await Ledger.load(w.data)).ledger.get(winner)!;
    expect(again).toMatchObject({ hash, folder: { size: 18 } });
  });
});
