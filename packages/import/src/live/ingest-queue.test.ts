import { describe, expect, it } from 'vitest';
import { IngestQueue } from './ingest-queue.js';

/** A queue whose reads are recorded and may be held open by the test. */
function recordingQueue(opened: Promise<unknown>) {
  const log: string[] = [];
  const errors: unknown[] = [];
  const held = new Map<string, () => void>();
  let onRead: (file: string) => void = () => undefined;
  const queue = new IngestQueue<number>({
    settleMs: 0,
    opened,
    read: async (file, item) => {
      log.push(`read ${file}:${item}`);
      onRead(file);
      if (file.startsWith('held'))
        await new Promise<void>((resolve) => held.set(file, () => (held.delete(file), resolve())));
    },
    drained: () => {
      log.push('drained');
      return Promise.resolve();
    },
    onError: (error) => errors.push(error),
  });
  return { queue, log, errors, held, setOnRead: (f: (file: string) => void) => (onRead = f) };
}

describe('IngestQueue', () => {
  it('reads each queued file once, in order, and is drained when empty', async () => {
    const { queue, log } = recordingQueue(Promise.resolve());
    queue.enqueue('a', 1);
    queue.enqueue('b', 2);
    queue.enqueue('a', 3); // waiting already: not queued twice
    await queue.idle();
    expect(log).toEqual(['read a:1', 'read b:2', 'drained']);
  });

  it('a file queued while it is read is read once more afterwards', async () => {
    const { queue, log, held, setOnRead } = recordingQueue(Promise.resolve());
    let first = true;
    setOnRead((file) => {
      if (file === 'held' && first) {
        first = false;
        queue.enqueue('held', 2);
        queue.enqueue('held', 3);
      }
    });
    queue.enqueue('held', 1);
    await expect.poll(() => held.size, { timeout: 10_000 }).toBe(1);
    held.get('held')!();
    await expect.poll(() => held.size, { timeout: 10_000 }).toBe(1);
    held.get('held')!();
    await queue.idle();
    expect(log).toEqual(['read held:1', 'read held:2', 'drained']);
  });

  it('reads nothing before it is open, and nothing at all when opening failed', async () => {
    let fail!: (error: Error) => void;
    const opened = new Promise((_, reject) => (fail = reject));
    const { queue, log } = recordingQueue(opened);
    queue.enqueue('a', 1);
    queue.enqueue('b', 2);
    expect(log).toEqual([]);
    fail(new Error('catch-up failed'));
    await queue.idle();
    expect(log).toEqual([]);
  });

  it('after stop, nothing more is read; settled waits for the read under way', async () => {
    const { queue, log, held } = recordingQueue(Promise.resolve());
    queue.enqueue('held', 1);
    queue.enqueue('b', 2);
    await expect.poll(() => held.size, { timeout: 10_000 }).toBe(1);
    queue.stop();
    queue.enqueue('c', 3);
    queue.changed('d', 4);
    const settled = queue.settled();
    held.get('held')!();
    await settled;
    // `b` still waited, so the queue never emptied: saving is the closer's (`LiveIngest.close`).
    expect(log).toEqual(['read held:1']);
  });

  it('a read that throws is reported and the queue goes on', async () => {
    const errors: unknown[] = [];
    const read: string[] = [];
    const queue = new IngestQueue<null>({
      settleMs: 0,
      opened: Promise.resolve(),
      read: (file) => {
        read.push(file);
        return file === 'bad' ? Promise.reject(new Error('boom')) : Promise.resolve();
      },
      drained: () => Promise.resolve(),
      onError: (error) => errors.push(error),
    });
    queue.enqueue('bad', null);
    queue.enqueue('good', null);
    await queue.idle();
    expect(read).toEqual(['bad', 'good']);
    expect(errors).toEqual([new Error('boom')]);
  });
});
