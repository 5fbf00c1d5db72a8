import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openJsonlPersistence, type JsonlSessionPersistence } from '@strand/persistence';
import { SessionId, SessionSeq, type SessionEvent } from '@strand/session';
import { testHeader } from '@strand/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { faultInjectingFs, formatSchedule, parseSchedule, type ScheduledFault } from './fault-fs.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function persistenceWith(schedule: readonly ScheduledFault[]): Promise<{
  persistence: JsonlSessionPersistence;
  struck: ScheduledFault[];
}> {
  const root = await mkdtemp(path.join(tmpdir(), 'strand-soak-fs-'));
  cleanups.push(() => rm(root, { recursive: true, force: true }));
  const struck: ScheduledFault[] = [];
  const persistence = await openJsonlPersistence({
    root,
    scanWorker: false,
    fs: faultInjectingFs(schedule, (fault) => struck.push(fault)),
  });
  cleanups.push(() => persistence.close());
  return { persistence, struck };
}

const id = SessionId('soak-fs');
const title = (seq: number, text: string): SessionEvent => ({
  seq: SessionSeq(seq),
  type: 'session/title',
  time: 1_700_000_000_000 + seq,
  data: { title: text },
});

describe('the fault-injecting fs of the soak', () => {
  it('fails the scheduled log writes as the OS would (EIO on write, EIO on fdatasync, ENOSPC mid-frame); nothing of a failed write is stored, and later writes land', async () => {
    const { persistence, struck } = await persistenceWith(parseSchedule('write@2,sync@3,enospc@4'));
    await persistence.create({ header: testHeader(id), materialize: true });
    await persistence.append(id, [title(0, 'one')]);
    await expect(persistence.append(id, [title(1, 'two')])).rejects.toMatchObject({
      code: 'PERSISTENCE_IO',
      message: expect.stringContaining('EIO'),
    });
    await expect(persistence.append(id, [title(1, 'three')])).rejects.toMatchObject({
      code: 'PERSISTENCE_IO',
      message: expect.stringContaining('EIO'),
    });
    await expect(persistence.append(id, [title(1, 'four')])).rejects.toMatchObject({
      code: 'PERSISTENCE_IO',
      message: expect.stringContaining('ENOSPC'),
    });
    await persistence.append(id, [title(1, 'five')]);
    expect(formatSchedule(struck)).toBe('write@2,sync@3,enospc@4');
    const stored = await persistence.inspect(id);
    expect(stored.events.map((e) => e.data)).toEqual([{ title: 'one' }, { title: 'five' }]);
    expect(stored.tornTail).toBe(false);
  });

  it('without a schedule it is node:fs: every write lands', async () => {
    const { persistence, struck } = await persistenceWith([]);
    await persistence.create({ header: testHeader(id), materialize: true });
    for (let seq = 0; seq < 5; seq++) await persistence.append(id, [title(seq, `t${seq}`)]);
    expect((await persistence.inspect(id)).events).toHaveLength(5);
    expect(struck).toEqual([]);
  });

  it('a schedule survives its argv form, and a malformed one is refused', () => {
    const schedule: ScheduledFault[] = [
      { kind: 'sync', at: 12 },
      { kind: 'enospc', at: 30 },
      { kind: 'write', at: 1 },
    ];
    expect(parseSchedule(formatSchedule(schedule))).toEqual(schedule);
    expect(parseSchedule('')).toEqual([]);
    for (const bad of ['sync', 'fsync@3', 'write@0', 'write@-1', 'write@2,', 'write@1e3'])
      expect(() => parseSchedule(bad), bad).toThrow(/bad fault/);
  });
});
