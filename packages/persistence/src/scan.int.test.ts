import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Session, repairEvents } from '@strand/session';
import { crashedTurn, testHeader } from '@strand/test-support';
import { workloadTurns } from '@strand/workload';
import { openJsonlPersistence } from './jsonl/jsonl-persistence.js';
import { persistenceWriter } from './preparation/persistence-writer.js';
import { openSqlitePersistence } from './sqlite/index.js';
import type { SessionPersistence } from './types.js';

const DATA_TYPES: ReadonlySet<string> = new Set(['assistant/message', 'user/message']);

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'strand-scan-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const backends: [string, () => Promise<SessionPersistence>][] = [
  ['jsonl (large .zst log, streamed)', () => openJsonlPersistence({ root })],
  ['sqlite', () => Promise.resolve(openSqlitePersistence({ path: path.join(root, 'strand.db') }))],
];

describe.each(backends)('scan on %s', (_name, open) => {
  async function writeLog(crashed: boolean): Promise<Session> {
    const p = await open();
    const header = testHeader('scanned');
    const { incarnation } = await p.create({ header });
    const session = new Session({ header, incarnation, writer: persistenceWriter(p, header.id) });
    for (const turn of workloadTurns(7, 1_500)) await session.append(turn);
    if (crashed) await session.append(crashedTurn('boom', ['c1', 'c2', 'c3']));
    await p.close();
    return session;
  }

  it('parses the data of the requested types only: every other event comes back with data null', async () => {
    const session = await writeLog(false);
    const p = await open();
    const scanned = await p.scan(session.id, { dataTypes: DATA_TYPES });
    expect(scanned.events).toHaveLength(session.events.length);
    scanned.events.forEach((event, i) => {
      const written = session.events[i]!;
      expect(event.data).toEqual(DATA_TYPES.has(written.type) ? written.data : null);
    });
    await p.close();
  });

  it('a crashed turn whose tool calls were elided still gets the exact closers (the turn is read again in full)', async () => {
    const session = await writeLog(true);
    const p = await open();
    const scanned = await p.scan(session.id, { dataTypes: DATA_TYPES });
    const calls = scanned.events.filter((e) => e.type === 'tool/call').slice(-3);
    expect(calls.map((e) => e.data)).toEqual([null, null, null]);
    expect(scanned.repairs).toEqual(repairEvents(session.events));
    expect(scanned.repairs.filter((e) => e.type === 'tool/result')).toHaveLength(3);
    await p.close();
  });
});
