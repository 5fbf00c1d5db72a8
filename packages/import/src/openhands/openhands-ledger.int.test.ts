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

const importOnce = (w: Workspace) =>
  importTranscripts({ harness: 'openhands', sourceDir: w.source, dataDir: w.data });

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
    expect((await importOnce(w)).imported).toBe(1);
    const entry = await ledgerEntry(w, dir);
    expect(entry?.folder).toEqual({ path: events, size: 18, mtimeMs: statSync(events).mtimeMs });
    expect(entry?.companions.map((c) => path.basename(c.path))).toEqual(['metadata.json']);
    expect(await importOnce(w)).toMatchObject({ imported: 0, updated: 0, unchanged: 1 });
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
