import { BUILT_IN_UNITS, ProjectionRegistry } from '@strand/projection';
import {
  newSessionHeader,
  SessionId,
  SessionLogOffset,
  SessionSeq,
  type SessionEvent,
} from '@strand/session';
import { describe, expect, it, vi } from 'vitest';
import { RemoteTail, type RemoteTailDeps, type RemoteTailSink } from './remote-tail.js';

const header = newSessionHeader({ id: SessionId('s1'), createdAt: 1_700_000_000_000 });
const events: SessionEvent[] = [
  { type: 'session/title', seq: SessionSeq(0), time: 1, data: { title: 'Remote' } },
] as SessionEvent[];

/** A tail over one stored event, its sink recording what the followers receive. */
function tailWith(cache: RemoteTailDeps['cache']) {
  const delivered: SessionEvent[] = [];
  const errors: unknown[] = [];
  const values = new Map<string, unknown>();
  let done!: () => void;
  const received = new Promise<void>((resolve) => (done = resolve));
  const sink: RemoteTailSink = {
    nextSeq: () => delivered.length,
    active: () => true,
    events: (batch) => {
      delivered.push(...batch);
      done();
    },
    projection: (key, value) => values.set(key, value),
    resync: (reason) => errors.push(new Error(`resync: ${reason}`)),
  };
  const persistence = {
    readFrom: vi.fn(() => Promise.resolve({ header, incarnation: 'inc-1', events } as never)),
  };
  const registry = new ProjectionRegistry({ units: BUILT_IN_UNITS });
  const deps: RemoteTailDeps = {
    persistence,
    registry,
    cache,
    coordination: { watchAppends: () => () => undefined },
  };
  const tail = new RemoteTail(
    deps,
    { header, incarnation: 'inc-1', inheritedEventCount: SessionLogOffset(0) },
    undefined,
    sink,
    (error) => errors.push(error),
  );
  return { tail, delivered, values, received, errors };
}

describe('RemoteTail and the projection cache', () => {
  it('readies the session’s cache rows (prefetch) before its synchronous cachedStates seed', async () => {
    const calls: string[] = [];
    const { tail, received, delivered } = tailWith({
      prefetch: (ids) => {
        calls.push(`prefetch ${ids.join(',')}`);
        return Promise.resolve();
      },
      cachedStates: () => {
        calls.push('cachedStates');
        return {};
      },
    });
    tail.pull();
    await received;
    tail.close();
    expect(calls).toEqual(['prefetch s1', 'cachedStates']);
    expect(delivered.map((event) => event.seq)).toEqual([0]);
  });

  it('a prefetch that rejects is a miss: the events and the folded values still reach the followers (fault injection)', async () => {
    const { tail, received, delivered, values, errors } = tailWith({
      prefetch: () => Promise.reject(new Error('connection lost')),
      cachedStates: () => ({}),
    });
    tail.pull();
    await received;
    await vi.waitFor(() => expect(values.get('title')).toBe('Remote'));
    tail.close();
    expect(delivered.map((event) => event.seq)).toEqual([0]);
    expect(errors).toEqual([]);
  });
});
