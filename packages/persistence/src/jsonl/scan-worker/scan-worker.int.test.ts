import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Session, type SessionEvent } from '@strand/session';
import { crashedTurn, testHeader } from '@strand/test-support';
import { workloadTurns } from '@strand/workload';
import { persistenceWriter } from '../../preparation/persistence-writer.js';
import { openJsonlPersistence } from '../jsonl-persistence.js';
import { SCAN_WORKER_MAX_STARTS, ScanWorkerClient } from './scan-worker-client.js';

const DATA_TYPES: ReadonlySet<string> = new Set(['assistant/message', 'user/message', 'subagent/descriptor']);

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'strand-scan-worker-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

async function writeLog(id: string, turnsSeed: number, crashed = false): Promise<readonly SessionEvent[]> {
  const p = await openJsonlPersistence({ root, scanWorker: false });
  const header = testHeader(id);
  const { incarnation } = await p.create({ header });
  const session = new Session({ header, incarnation, writer: persistenceWriter(p, header.id) });
  for (const turn of workloadTurns(turnsSeed, 1_300)) await session.append(turn);
  if (crashed) await session.append(crashedTurn('boom', ['c1']));
  await p.close();
  return session.events;
}

function fileOf(id: string): string {
  return path.join(root, 'sessions', readdirSync(path.join(root, 'sessions')).find((n) => n.startsWith(id))!);
}

describe('scan through the worker thread', () => {
  it('gives exactly what the same scan on this thread gives, closed and crashed logs alike', async () => {
    await writeLog('closed', 1);
    await writeLog('crashed', 2, true);
    const worker = await openJsonlPersistence({ root });
    const local = await openJsonlPersistence({ root, scanWorker: false });
    try {
      expect(await worker.scanWorkerReady()).toBe(true);
      expect(await local.scanWorkerReady()).toBe(false);
      for (const id of ['closed', 'crashed']) {
        const viaWorker = await worker.scan(testHeader(id).id, { dataTypes: DATA_TYPES });
        const here = await local.scan(testHeader(id).id, { dataTypes: DATA_TYPES });
        expect(viaWorker).toEqual(here);
        expect(viaWorker.events.some((e) => e.data === null)).toBe(true);
      }
      expect(worker.scanWorkerStats).toEqual({ served: 2, declined: 0 });
      expect(local.scanWorkerStats).toBeUndefined();
    } finally {
      await worker.close();
      await local.close();
    }
  });

  it('a log the worker declines (a torn tail) is read on this thread: the torn tail is reported, every stored event is there', async () => {
    const events = await writeLog('torn', 3);
    const file = fileOf('torn');
    const before = statSync(file).size;
    appendFileSync(file, Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 1, 2, 3])); // half a frame
    expect(statSync(file).size).toBeGreaterThan(before);
    const p = await openJsonlPersistence({ root });
    try {
      expect(await p.scanWorkerReady()).toBe(true);
      const scanned = await p.scan(testHeader('torn').id, { dataTypes: DATA_TYPES });
      expect(scanned.tornTail).toBe(true);
      expect(scanned.events.map((e) => e.seq)).toEqual(events.map((e) => e.seq));
      expect(p.scanWorkerStats).toEqual({ served: 0, declined: 1 });
    } finally {
      await p.close();
    }
  });

  it('never waits for the worker to start: a scan before it is ready reads on this thread', async () => {
    const events = await writeLog('early', 7);
    const p = await openJsonlPersistence({ root });
    try {
      const scanned = await p.scan(testHeader('early').id, { dataTypes: DATA_TYPES });
      expect(scanned.events.map((e) => e.seq)).toEqual(events.map((e) => e.seq));
      expect(p.scanWorkerStats).toEqual({ served: 0, declined: 1 });
      expect(await p.scanWorkerReady()).toBe(true); // that first scan started it
      await p.scan(testHeader('early').id, { dataTypes: DATA_TYPES });
      expect(p.scanWorkerStats).toEqual({ served: 1, declined: 1 });
    } finally {
      await p.close();
    }
  });
});

describe('ScanWorkerClient faults (never fails a scan, never hangs)', () => {
  it(`a worker that dies on its first request answers undefined, and is restarted at most ${SCAN_WORKER_MAX_STARTS} times`, async () => {
    await writeLog('any', 4);
    const client = new ScanWorkerClient(new URL('./test/crash-on-message.mjs', import.meta.url));
    try {
      for (let start = 0; start < SCAN_WORKER_MAX_STARTS; start++) {
        expect(await client.whenReady()).toBe(true);
        expect(await client.scan(fileOf('any'), DATA_TYPES)).toBeUndefined();
      }
      expect(await client.whenReady()).toBe(false); // not started again
      expect(await client.scan(fileOf('any'), DATA_TYPES)).toBeUndefined();
      expect(client.stats).toEqual({ served: 0, declined: SCAN_WORKER_MAX_STARTS + 1 });
    } finally {
      await client.close();
    }
  });

  it(`a worker that fails to load is never ready, every scan is declined at once, and it is started at most ${SCAN_WORKER_MAX_STARTS} times`, async () => {
    await writeLog('any', 4);
    const client = new ScanWorkerClient(new URL('./test/fails-to-load.mjs', import.meta.url));
    try {
      for (let start = 0; start < SCAN_WORKER_MAX_STARTS + 1; start++) {
        expect(await client.scan(fileOf('any'), DATA_TYPES)).toBeUndefined();
        expect(await client.whenReady()).toBe(false);
      }
      expect(client.stats).toEqual({ served: 0, declined: SCAN_WORKER_MAX_STARTS + 1 });
    } finally {
      await client.close();
    }
  });

  it('close answers outstanding scans with undefined', async () => {
    await writeLog('closing', 5);
    const client = new ScanWorkerClient();
    expect(await client.whenReady()).toBe(true);
    const pending = client.scan(fileOf('closing'), DATA_TYPES);
    await client.close();
    expect(await pending).toBeUndefined();
    expect(await client.scan(fileOf('closing'), DATA_TYPES)).toBeUndefined();
  });

  it('in a real process run by tsx, an awaited scan completes through the worker (the idle worker never holds the process)', async () => {
    const events = await writeLog('process', 6);
    const script = `
      import { openJsonlPersistence } from ${JSON.stringify(pathToFileURL(path.resolve(import.meta.dirname, '../../index.ts')).href)};
      const p = await openJsonlPersistence({ root: ${JSON.stringify(root)} });
      await p.scanWorkerReady();
      const log = await p.scan('process', { dataTypes: new Set(['user/message']) });
      console.log(JSON.stringify({ events: log.events.length, stats: p.scanWorkerStats }));
    `;
    // No close(): the process must still exit on its own once the scan is done.
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(JSON.parse(out.trim())).toEqual({ events: events.length, stats: { served: 1, declined: 0 } });
  });
});
