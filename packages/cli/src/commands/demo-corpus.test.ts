import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SessionPersistence } from '@strand/persistence';
import type { SessionEvent, SessionHeader } from '@strand/session';
import { WORKLOAD_START_TIME } from '@strand/workload';
import { datedAfter, writeDemoCorpus } from './demo-corpus.js';

/** Keeps what the demo writes: each session's header, inherited events and appended events. */
function recordingPersistence(): {
  readonly persistence: SessionPersistence;
  readonly written: Map<string, { header: SessionHeader; inherited: number; own: SessionEvent[] }>;
} {
  const written = new Map<string, { header: SessionHeader; inherited: number; own: SessionEvent[] }>();
  const recorder: Pick<SessionPersistence, 'create' | 'append'> = {
    create: ({ header, inheritedEvents }) => {
      written.set(header.id, { header, inherited: inheritedEvents?.length ?? 0, own: [] });
      return Promise.resolve({ incarnation: `inc-${header.id}` });
    },
    append: (id, events) => {
      written.get(id)?.own.push(...events);
      return Promise.resolve({ revision: String(events.length) });
    },
  };
  // The demo only creates and appends; any other call would be a test failure, not a silent no-op.
  return { persistence: recorder as SessionPersistence, written };
}

describe('demo corpus dates', () => {
  it('dates every own event of every demo session at or after its header, the last prompt included', async () => {
    const { persistence, written } = recordingPersistence();
    await writeDemoCorpus(persistence);
    expect(written.size).toBeGreaterThan(10);
    for (const { header, own } of written.values()) {
      expect(own.length).toBeGreaterThan(0);
      for (const event of own) expect(event.time).toBeGreaterThanOrEqual(header.createdAt);
      const prompts = own.filter((e) => e.type === 'user/message');
      if (prompts.length > 0) expect(prompts.at(-1)!.time).toBeGreaterThanOrEqual(header.createdAt);
    }
  }, 60_000);

  it('datedAfter: never before the creation, order and spacing of the workload clock kept', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4_000_000_000_000 }),
        fc.array(fc.option(fc.integer({ min: 0, max: 10_000_000 }), { nil: undefined })),
        (createdAt, offsets) => {
          const inputs = offsets.map((offset) => ({
            type: 'turn/start' as const,
            data: {},
            ...(offset === undefined ? {} : { time: WORKLOAD_START_TIME + offset }),
          }));
          const dated = datedAfter(createdAt, inputs);
          expect(dated.map((e) => e.time! - createdAt)).toEqual(offsets.map((offset) => offset ?? 0));
        },
      ),
    );
  });
});
