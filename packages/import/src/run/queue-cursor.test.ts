import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { QueueCursor } from './queue-cursor.js';

describe('QueueCursor', () => {
  it('hands out each index once, in order, to any takers on either side of the share; taken counts exactly those', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 50 }),
        fc.array(fc.boolean(), { maxLength: 80 }),
        (length, sides) => {
          const here = QueueCursor.create(length);
          // The view another thread would have: the same cells, attached.
          const there = QueueCursor.attach(structuredClone(here.shared));
          const got: number[] = [];
          for (const side of sides) {
            const index = (side ? here : there).take();
            if (index !== undefined) got.push(index);
          }
          expect(got).toEqual(Array.from({ length: got.length }, (_, i) => i));
          expect(got.length).toBe(Math.min(length, sides.length));
          expect(here.taken).toBe(got.length);
          expect(there.taken).toBe(got.length);
        },
      ),
    );
  });

  it('once stopped on either side, or once its predicate says so, gives nothing more to anyone', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50 }),
        fc.nat({ max: 60 }),
        fc.constantFrom('here', 'there', 'predicate'),
        (length, before, how) => {
          let stop = false;
          const here = QueueCursor.create(length, () => stop);
          const there = QueueCursor.attach(structuredClone(here.shared));
          for (let i = 0; i < before; i++) there.take();
          const takenBefore = here.taken;
          if (how === 'here') here.stop();
          else if (how === 'there') there.stop();
          else {
            stop = true;
            // The predicate is asked in the thread that holds it; a take there stops the others too.
            expect(here.take()).toBeUndefined();
          }
          expect(there.take()).toBeUndefined();
          expect(here.take()).toBeUndefined();
          expect(here.taken).toBe(takenBefore);
        },
      ),
    );
  });
});
