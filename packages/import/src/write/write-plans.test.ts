import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openJsonlPersistence, type SessionPersistence } from '@strand/persistence';
import { SessionId, type SessionEventInput } from '@strand/session';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { SessionPlan } from '../mapping/session-plan.js';
import { writePlan, type WriteTarget } from './write-plan.js';
import { writePlans, type PlanWrite } from './write-plans.js';

const root = mkdtempSync(path.join(tmpdir(), 'strand-write-plans-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let folders = 0;

async function target(wrap?: (p: SessionPersistence) => SessionPersistence): Promise<{
  target: WriteTarget;
  close: () => Promise<void>;
}> {
  const persistence = await openJsonlPersistence({
    root: path.join(root, `f${folders++}`),
    compression: 'zstd',
  });
  return {
    target: { persistence: wrap?.(persistence) ?? persistence, stored: new Set() },
    close: () => persistence.close(),
  };
}

/** A member of the persistence, bound to it (its methods use private fields, which a proxy has not). */
function own(base: SessionPersistence, key: string | symbol): unknown {
  const value = Reflect.get(base, key) as unknown;
  return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(base) : value;
}

const notes = (texts: readonly string[]): SessionEventInput[] =>
  texts.map((content, i) => ({ type: 'user/message', time: 1_000 + i, data: { content, author: 'system' } }));

/** A plan of `id` with `texts` as its events; a fork of `parent` (seeded with all its events) when given. */
function plan(id: string, texts: readonly string[], parent?: string): SessionPlan {
  return {
    header: { id: SessionId(id), createdAt: 1_000, source: { harness: 'aider', sourceId: id } },
    events: notes(texts),
    attachments: new Map(),
    ...(parent === undefined
      ? {}
      : { fork: { parentId: SessionId(parent), cutIn: (events: readonly unknown[]) => events.length } }),
  };
}

/** What a write did, without the parts that differ between two folders (incarnations). */
const outcome = (write: PlanWrite): unknown =>
  'error' in write
    ? { id: write.plan.header.id, error: write.error.message }
    : {
        id: write.plan.header.id,
        outcome: write.result.outcome,
        events: write.result.events,
        awaitingParent: write.result.awaitingParent,
        written: write.result.written?.events.map((e) => [e.seq, e.type, e.data]),
      };

/** A plan list: ids from a small set (so some repeat), some plans forks of an earlier id. */
const plans = fc
  .array(
    fc.record({
      id: fc.integer({ min: 0, max: 5 }),
      texts: fc.array(fc.constantFrom('a', 'b', 'c'), { minLength: 1, maxLength: 3 }),
      forkOf: fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }),
    }),
    { maxLength: 10 },
  )
  .map((specs) =>
    specs.map((s) =>
      plan(`s-${s.id}`, s.texts, s.forkOf === undefined || s.forkOf === s.id ? undefined : `s-${s.forkOf}`),
    ),
  );

describe('writePlans', () => {
  it('writes what writing the plans one after another writes: outcomes in plan order, forks seeded from earlier plans', async () => {
    await fc.assert(
      fc.asyncProperty(plans, fc.integer({ min: 1, max: 5 }), async (list, inFlight) => {
        const one = await target();
        const many = await target();
        try {
          const sequential: PlanWrite[] = [];
          for (const p of list) sequential.push({ plan: p, result: await writePlan(one.target, p) });
          const concurrent = await writePlans(many.target, list, inFlight);
          expect(concurrent.map(outcome)).toEqual(sequential.map(outcome));
          expect([...many.target.stored].sort()).toEqual([...one.target.stored].sort());
        } finally {
          await one.close();
          await many.close();
        }
      }),
      { numRuns: 25 },
    );
  });

  it('has at most `inFlight` writes started at once', async () => {
    let creating = 0;
    let most = 0;
    const counted = (p: SessionPersistence): SessionPersistence =>
      new Proxy(p, {
        get(base, key) {
          if (key !== 'create') return own(base, key);
          return async (input: Parameters<SessionPersistence['create']>[0]) => {
            most = Math.max(most, ++creating);
            // Let every other write that could start do so before this one goes on.
            await new Promise((resolve) => setImmediate(resolve));
            try {
              return await base.create(input);
            } finally {
              creating--;
            }
          };
        },
      });
    const { target: t, close } = await target(counted);
    try {
      const list = Array.from({ length: 12 }, (_, i) => plan(`n-${i}`, ['a']));
      const writes = await writePlans(t, list, 3);
      expect(writes.map((w) => ('result' in w ? w.result.outcome : 'error'))).toEqual(
        list.map(() => 'imported'),
      );
      expect(most).toBe(3);
    } finally {
      await close();
    }
  });

  it('starts no write after one failed, and reports those in flight', async () => {
    // The create of n-1 fails at once (before any I/O), so the failure is seen before any other
    // write settles: which writes started is fixed.
    const failing = (p: SessionPersistence): SessionPersistence =>
      new Proxy(p, {
        get(base, key) {
          if (key !== 'create') return own(base, key);
          return (input: Parameters<SessionPersistence['create']>[0]) =>
            input.header.id === 'n-1' ? Promise.reject(new Error('disk full')) : base.create(input);
        },
      });
    const list = Array.from({ length: 8 }, (_, i) => plan(`n-${i}`, ['a']));
    for (const [inFlight, expected] of [
      [1, ['n-0', 'n-1']],
      // n-2 started beside n-1 (three in flight), so it finished; nothing after it started.
      [3, ['n-0', 'n-1', 'n-2']],
    ] as const) {
      const { target: t, close } = await target(failing);
      try {
        const writes = await writePlans(t, list, inFlight);
        expect(writes.map(outcome)).toEqual(
          expected.map((id) =>
            id === 'n-1'
              ? { id, error: 'disk full' }
              : (expect.objectContaining({ id, outcome: 'imported' }) as unknown),
          ),
        );
        expect([...t.stored].sort()).toEqual(expected.filter((id) => id !== 'n-1'));
      } finally {
        await close();
      }
    }
  });
});
