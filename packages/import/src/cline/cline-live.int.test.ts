import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionId } from '@strand/session';
import { PACKAGE_SRC, copyInto } from '../testing/fixture-dirs.js';
import { openLiveBed, settled, type LiveBed } from '../testing/live-bed.js';

/**
 * Live ingest of Cline task folders, which Cline rewrites whole on every save: a save that extends
 * the history is appended to the stored session; a change of the UI messages alone (usage written
 * after the history) is a change of the task.
 */
const NATIVE = '1764835200000';

let bed: LiveBed;
let api: string;
let full: unknown[];

beforeEach(async () => {
  bed = await openLiveBed('strand-live-cline-', 'cline');
  const from = path.join(PACKAGE_SRC, 'cline', 'fixtures', 'synthetic', 'tasks', NATIVE);
  copyInto(from, path.join(bed.ws.source, 'tasks', NATIVE));
  api = path.join(bed.ws.source, 'tasks', NATIVE, 'api_conversation_history.json');
  full = JSON.parse(readFileSync(api, 'utf8')) as unknown[];
  // The task as it was after its first response.
  writeFileSync(api, JSON.stringify(full.slice(0, 2)));
});

afterEach(() => bed.close());

describe('Cline live ingest', () => {
  it('a whole-file save that extends the history is appended, not a replacement', async () => {
    const live = await bed.start();
    const id = SessionId(`cline-${NATIVE}`);
    const before = await bed.persistence.inspect(id);
    expect(before.events.filter((e) => e.type === 'assistant/message')).toHaveLength(1);
    writeFileSync(api, JSON.stringify(full));
    await settled(live, async () => {
      const log = await bed.persistence.inspect(id);
      return log.events.filter((e) => e.type === 'assistant/message').length === 5;
    });
    const after = await bed.persistence.inspect(id);
    expect(after.incarnation).toBe(before.incarnation);
    expect(after.events.slice(0, before.events.length)).toEqual(before.events);
    expect(bed.reports.filter((r) => r.kind !== 'note')).toEqual([]);
  });
});
