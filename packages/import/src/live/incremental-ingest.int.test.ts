import { appendFileSync, mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openJsonlPersistence, SessionPreparations, type SessionPersistence } from '@strand/persistence';
import { SessionId, SessionStore } from '@strand/session';
import { Ledger } from '../ledger/ledger.js';
import { codexRollout } from '../testing/synthetic.js';
import { workspace, type Workspace } from '../testing/fixture-dirs.js';
import type { ImportReport } from '../types.js';
import type { FileRead } from './file-follow.js';
import { startLiveIngest, type LiveIngest } from './live-ingest.js';

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

let ws: Workspace;
let persistence: SessionPersistence;
let ingest: LiveIngest | undefined;
let file: string;
const reads: FileRead[] = [];
const reports: ImportReport[] = [];

beforeEach(async () => {
  ws = workspace('strand-live-big-');
  const dir = path.join(ws.source, '2026', '02', '10');
  mkdirSync(dir, { recursive: true });
  file = path.join(dir, `rollout-2026-02-10T09-00-00-${SOURCE_ID}.jsonl`);
  persistence = await openJsonlPersistence({ root: ws.data });
  reads.length = 0;
  reports.length = 0;
});

afterEach(async () => {
  await ingest?.close();
  ingest = undefined;
  await persistence.close();
  ws.dispose();
});

async function start(): Promise<LiveIngest> {
  ingest = startLiveIngest({
    watches: [{ harness: 'codex', dir: ws.source }],
    target: { persistence, preparations: new SessionPreparations(persistence), store: new SessionStore() },
    dataDir: ws.data,
    onReport: (r) => reports.push(r),
    onRead: (r) => reads.push(r),
    settleMs: 5,
  });
  await ingest.ready;
  return ingest;
}

async function settled(live: LiveIngest, condition: () => Promise<boolean> | boolean): Promise<void> {
  for (let i = 0; i < 400 && !(await condition()); i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    await live.idle();
  }
  expect(await condition()).toBe(true);
}

/** One assistant line of the open turn. */
const answer = (i: number): string =>
  JSON.stringify({
    timestamp: new Date(Date.parse('2026-03-01T09:00:00.000Z') + i * 1000).toISOString(),
    type: 'response_item',
    payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: `live ${i}` }] },
  }) + '\n';

const eventsOf = async (): Promise<number> => (await persistence.inspect(ID)).events.length;

describe('live ingest of a large transcript', () => {
  it('an append to a several-MB file reads and maps only the appended bytes; the ledger follows', async () => {
    writeFileSync(file, BIG);
    const size = Buffer.byteLength(BIG);
    expect(size).toBeGreaterThan(5_000_000);
    const live = await start();
    expect(reads).toEqual([{ file, mode: 'whole', bytes: size, lines: BIG.split('\n').length - 1 }]);
    const first = await eventsOf();

    const line = answer(1);
    appendFileSync(file, line);
    await settled(live, async () => (await eventsOf()) > first);
    const afterOne = await eventsOf();
    const appended = reads.slice(1);
    expect(appended).toHaveLength(1);
    expect(appended[0]!.mode).toBe('appended');
    expect(appended[0]!.lines).toBe(1);
    // The line itself plus the two rewrite-check windows (4 KB each): nothing like the file.
    expect(appended[0]!.bytes).toBeLessThanOrEqual(Buffer.byteLength(line) + 2 * 4096);

    // A partial line is read but not mapped; its newline completes it.
    const next = answer(2);
    appendFileSync(file, next.slice(0, 20));
    await settled(live, () => reads.length === 3);
    expect(reads[2]!.lines).toBe(0);
    expect(await eventsOf()).toBe(afterOne);
    appendFileSync(file, next.slice(20));
    await settled(live, async () => (await eventsOf()) === afterOne + 1);
    expect(reads[3]!.lines).toBe(1);

    await live.idle();
    await ingest!.close();
    ingest = undefined;
    const { ledger } = await Ledger.load(ws.data);
    const entry = ledger.get(file);
    const stat = statSync(file);
    expect(entry).toMatchObject({ harness: 'codex', size: stat.size, mtimeMs: stat.mtimeMs });
    expect(entry!.sessions).toEqual([{ id: ID, events: afterOne + 1 }]);
    expect(reports.filter((r) => r.kind !== 'note')).toEqual([]);

    // A restart over the unchanged file reads nothing: the ledger's stamps say it is written.
    reads.length = 0;
    const again = await start();
    await again.idle();
    expect(reads).toEqual([]);
    appendFileSync(file, answer(3));
    await settled(again, async () => (await eventsOf()) === afterOne + 2);
    // The first change after a restart reads the file whole once (the fold is not kept on disk).
    expect(reads.map((r) => r.mode)).toEqual(['whole']);
  });

  it('a file replaced by another one (rename) is read whole again and compared, not appended blindly', async () => {
    writeFileSync(file, BIG);
    const live = await start();
    const before = await persistence.inspect(ID);
    // An editor's atomic save: the same content plus a line, written to a new file renamed in.
    const tmp = `${file}.tmp`;
    writeFileSync(tmp, BIG + answer(1));
    renameSync(tmp, file);
    await settled(live, async () => (await eventsOf()) > before.events.length);
    expect(reads.at(-1)!.mode).toBe('whole');
    expect((await persistence.inspect(ID)).incarnation).toBe(before.incarnation);
    expect(reports.filter((r) => r.kind === 'replaced')).toEqual([]);
  });
});
