import { cpSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionId } from '@strand/session';
import { importTranscripts } from '../run/import-transcripts.js';
import { PACKAGE_SRC, readStore, workspace } from '../testing/fixture-dirs.js';
import { openLiveBed, settled, type LiveBed } from '../testing/live-bed.js';

/**
 * Live ingest of an OpenHands conversation while "OpenHands" writes further events: each event is
 * a new `events/<n>.json` file, a companion of the conversation's unit, and its events are
 * appended to the stored session, never replacing it.
 */
const SID = '5f2b0c9e8a7d4c3b9e1f0a2b3c4d5e6f';
const SRC = path.join(PACKAGE_SRC, 'openhands', 'fixtures', 'synthetic', SID);
const LATER = /^(1[3-9]|20)\.json$/;

let bed: LiveBed;

beforeEach(async () => {
  bed = await openLiveBed('strand-live-openhands-', 'openhands');
});

afterEach(() => bed.close());

describe('OpenHands live ingest', () => {
  it('event files written while watched are appended; the result equals a one-shot import', async () => {
    const dst = path.join(bed.ws.source, SID);
    cpSync(SRC, dst, { recursive: true, filter: (f) => !LATER.test(path.basename(f)) });
    const live = await bed.start();
    const id = SessionId(`openhands-${SID}`);
    const before = await bed.persistence.inspect(id);
    expect(before.events.length).toBeGreaterThan(0);

    const later = readdirSync(path.join(SRC, 'events'))
      .filter((f) => LATER.test(f))
      .sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10));
    for (const name of later) cpSync(path.join(SRC, 'events', name), path.join(dst, 'events', name));

    const whole = workspace('strand-openhands-whole-');
    try {
      cpSync(SRC, path.join(whole.source, SID), { recursive: true });
      await importTranscripts({ harness: 'openhands', sourceDir: whole.source, dataDir: whole.data });
      const expected = (await readStore(whole.data)).get(id)!;
      const eventsOf = async (): Promise<unknown[]> =>
        (await bed.persistence.inspect(id)).events.map((e) => ({ type: e.type, data: e.data }));
      await settled(live, async () => (await eventsOf()).length === expected.events.length);
      expect(await eventsOf()).toEqual(expected.events.map((e) => ({ type: e.type, data: e.data })));
    } finally {
      whole.dispose();
    }
    expect((await bed.persistence.inspect(id)).incarnation).toBe(before.incarnation);
    expect(bed.reports.filter((r) => r.kind !== 'note')).toEqual([]);
  });
});
