import { appendFileSync, mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionId } from '@strand/session';
import { Ledger } from '../ledger/ledger.js';
import { codexRollout } from '../testing/synthetic.js';
import { openLiveBed, settled, type LiveBed } from '../testing/live-bed.js';
import type { LiveIngest } from './live-ingest.js';

/**
 * Live ingest of a large transcript over real files, real fsync'd JSONL persistence and a real
 * live store: after the first read, an append costs what was appended (bytes read and lines
 * mapped are counted through `onRead`, never timed), every write is stamped in the ledger, and a
 * restart over an unchanged file reads nothing.
 */
const SOURCE_ID = '01e00000-0000-7000-8000-000000000001';
const ID = SessionId(`codex-${SOURCE_ID}`);
/** About 6 MB: 400 turns of 12,000-character answers. */
const BIG = codexRollout({ id: SOURCE_ID, turns: 400, outputChars: 12_000 });

let bed: LiveBed;
let file: string;

beforeEach(async () => {
  bed = await openLiveBed('strand-live-big-', 'codex');
  const dir = path.join(bed.ws.source, '2026', '02', '10');
  mkdirSync(dir, { recursive: true });
  file = path.join(dir, `rollout-2026-02-10T09-00-00-${SOURCE_ID}.jsonl`);
});

afterEach(() => bed.close());

/** Starts live ingest with the data folder (so it reads and stamps the ledger). */
const start = (): Promise<LiveIngest> => bed.start({ dataDir: bed.ws.data });

/** One assistant line of the open turn. */
const answer = (i: number): string =>
  JSON.stringify({
    timestamp: new Date(Date.parse('2026-03-01T09:00:00.000Z') + i * 1000).toISOString(),
    type: 'response_item',
    payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: `live ${i}` }] },
  }) + '\n';

const eventsOf = async (): Promise<number> => (await bed.persistence.inspect(ID)).events.length;

describe('live ingest of a large transcript', () => {
  it('an append to a several-MB file reads and maps only the appended bytes; the ledger follows', async () => {
    writeFileSync(file, BIG);
    const size = Buffer.byteLength(BIG);
    expect(size).toBeGreaterThan(5_000_000);
    const live = await start();
    expect(bed.reads).toEqual([{ file, mode: 'whole', bytes: size, lines: BIG.split('\n').length - 1 }]);
    const first = await eventsOf();

    const line = answer(1);
    appendFileSync(file, line);
    await settled(live, async () => (await eventsOf()) > first);
    const afterOne = await eventsOf();
    const appended = bed.reads.slice(1);
    expect(appended).toHaveLength(1);
    expect(appended[0]!.mode).toBe('appended');
    expect(appended[0]!.lines).toBe(1);
    // The line itself plus the two rewrite-check windows (4 KB each): nothing like the file.
    expect(appended[0]!.bytes).toBeLessThanOrEqual(Buffer.byteLength(line) + 2 * 4096);

    // A partial line is read but not mapped; its newline completes it.
    const next = answer(2);
    appendFileSync(file, next.slice(0, 20));
    await settled(live, () => bed.reads.length === 3);
    expect(bed.reads[2]!.lines).toBe(0);
    expect(await eventsOf()).toBe(afterOne);
    appendFileSync(file, next.slice(20));
    await settled(live, async () => (await eventsOf()) === afterOne + 1);
    expect(bed.reads[3]!.lines).toBe(1);

    await live.idle();
    await bed.stop();
    const { ledger } = await Ledger.load(bed.ws.data);
    const entry = ledger.get(file);
    const stat = statSync(file);
    expect(entry).toMatchObject({ harness: 'codex', size: stat.size, mtimeMs: stat.mtimeMs });
    expect(entry!.sessions).toEqual([{ id: ID, events: afterOne + 1 }]);
    expect(bed.reports.filter((r) => r.kind !== 'note')).toEqual([]);

    // A restart over the unchanged file reads nothing: the ledger's stamps say it is written.
    bed.reads.length = 0;
    const again = await start();
    await again.idle();
    expect(bed.reads).toEqual([]);
    appendFileSync(file, answer(3));
    await settled(again, async () => (await eventsOf()) === afterOne + 2);
    // The first change after a restart reads the file whole once (the fold is not kept on disk).
    expect(bed.reads.map((r) => r.mode)).toEqual(['whole']);
  });

  it('a file replaced by another one (rename) is read whole again and compared, not appended blindly', async () => {
    writeFileSync(file, BIG);
    const live = await start();
    const before = await bed.persistence.inspect(ID);
    // An editor's atomic save: the same content plus a line, written to a new file renamed in.
    const tmp = `${file}.tmp`;
    writeFileSync(tmp, BIG + answer(1));
    renameSync(tmp, file);
    await settled(live, async () => (await eventsOf()) > before.events.length);
    expect(bed.reads.at(-1)!.mode).toBe('whole');
    expect((await bed.persistence.inspect(ID)).incarnation).toBe(before.incarnation);
    expect(bed.reports.filter((r) => r.kind === 'replaced')).toEqual([]);
  });
});
