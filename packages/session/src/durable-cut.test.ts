import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SessionEvent } from './event.js';
import { newSessionHeader } from './header.js';
import { SessionId } from './ids.js';
import { Session, type SessionWriter } from './session.js';

/** A writer whose every write the test settles by hand, in any order: the disk is what it acknowledged. */
class ManualWriter implements SessionWriter {
  readonly pending: { events: readonly SessionEvent[]; resolve: () => void; reject: (e: Error) => void }[] =
    [];
  readonly disk = new Map<number, SessionEvent>();

  write(events: readonly SessionEvent[]): Promise<void> {
    return new Promise((resolve, reject) => this.pending.push({ events, resolve, reject }));
  }

  acknowledge(index: number): void {
    const [write] = this.pending.splice(index, 1);
    for (const event of write!.events) this.disk.set(event.seq, event);
    write!.resolve();
  }

  fail(index: number): void {
    const [write] = this.pending.splice(index, 1);
    write!.reject(new Error('EIO'));
  }
}

const header = () => newSessionHeader({ id: SessionId('s'), createdAt: 1_000 });
const tick = (n: number) => ({ type: 'x/tick', data: { n } });
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A follower as the host's follow hub is one: the durable prefix at join, then durable batches. */
function follow(session: Session): SessionEvent[] {
  const seen = [...session.events];
  session.subscribe((batch) => seen.push(...batch));
  return seen;
}

describe('the durable cut', () => {
  it('readers see a batch only once the writer acknowledged it; the agent loop sees its tip at once', async () => {
    const writer = new ManualWriter();
    const session = new Session({ header: header(), writer });
    const seen = follow(session);
    const appended = session.append([tick(0), tick(1)]);
    expect(session.inMemoryTip().cursor).toBe(2);
    expect(session.cursor).toBe(0);
    expect(session.events).toEqual([]);
    expect(seen).toEqual([]);
    writer.acknowledge(0);
    await appended;
    expect(session.cursor).toBe(2);
    expect(seen.map((e) => e.seq)).toEqual([0, 1]);
  });

  it('batches acknowledged out of order are delivered in seq order, each append resolving after its delivery', async () => {
    const writer = new ManualWriter();
    const session = new Session({ header: header(), writer });
    const seen = follow(session);
    const first = session.append(tick(0));
    const second = session.append(tick(1));
    writer.acknowledge(1);
    await settle();
    expect(seen).toEqual([]);
    writer.acknowledge(0);
    await Promise.all([first, second]);
    expect(seen.map((e) => e.seq)).toEqual([0, 1]);
  });

  it('a failed write stops the session: nothing in flight reaches readers, the tip falls back, later appends are refused', async () => {
    const writer = new ManualWriter();
    const session = new Session({ header: header(), writer, reportListenerError: () => undefined });
    const seen = follow(session);
    const failures: string[] = [];
    session.onWriteFailure((failure) => failures.push(failure.code));
    const ok = session.append(tick(0));
    const lost = session.append(tick(1));
    const behind = session.append(tick(2));
    writer.acknowledge(0);
    await ok;
    writer.fail(0);
    await expect(lost).rejects.toMatchObject({ code: 'SESSION_WRITE_FAILED' });
    await expect(behind).rejects.toMatchObject({ code: 'SESSION_WRITE_FAILED' });
    // The third write still succeeding on its own cannot make it visible: its seq follows a lost one.
    writer.acknowledge(0);
    await settle();
    expect(seen.map((e) => e.seq)).toEqual([0]);
    expect(session.inMemoryTip().cursor).toBe(1);
    expect(failures).toEqual(['SESSION_WRITE_FAILED']);
    await expect(session.append(tick(3))).rejects.toMatchObject({ code: 'SESSION_WRITE_FAILED' });
    const late: string[] = [];
    session.onWriteFailure((failure) => late.push(failure.code));
    expect(late).toEqual(['SESSION_WRITE_FAILED']);
  });

  it('property: under random interleavings of appends, acknowledgements, write failures and follows, every follower holds a contiguous prefix of what is on disk', async () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('append' as const), size: fc.integer({ min: 1, max: 3 }) }),
      fc.record({ kind: fc.constant('ack' as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant('fail' as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant('follow' as const) }),
      fc.record({ kind: fc.constant('settle' as const) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 40 }), async (ops) => {
        const writer = new ManualWriter();
        const session = new Session({ header: header(), writer, reportListenerError: () => undefined });
        const followers = [follow(session)];
        const appends: Promise<unknown>[] = [];
        let n = 0;
        for (const step of ops) {
          if (step.kind === 'append') {
            const batch = Array.from({ length: step.size }, () => tick(n++));
            appends.push(session.append(batch).catch(() => undefined));
          } else if (step.kind === 'ack' && writer.pending.length > 0) {
            writer.acknowledge(step.pick % writer.pending.length);
          } else if (step.kind === 'fail' && writer.pending.length > 0) {
            writer.fail(step.pick % writer.pending.length);
          } else if (step.kind === 'follow') {
            followers.push(follow(session));
          } else {
            await settle();
          }
        }
        while (writer.pending.length > 0) writer.acknowledge(0);
        await Promise.all(appends);
        for (const seen of followers) {
          seen.forEach((event, i) => {
            expect(event.seq).toBe(i);
            expect(writer.disk.get(event.seq)).toBe(event);
          });
          expect(seen).toEqual(session.events.slice(0, seen.length));
        }
        expect(followers[0]).toEqual(session.events);
      }),
      { numRuns: 200 },
    );
  });
});
