import fc from 'fast-check';
import type { SessionEventInput } from '@strand/session';

/** True if `value` holds a -0 anywhere: JSON writes it as 0, so it is not lossless JSON. */
export function holdsNegativeZero(value: unknown): boolean {
  if (typeof value === 'number') return Object.is(value, -0);
  if (typeof value !== 'object' || value === null) return false;
  return Object.values(value).some(holdsNegativeZero);
}

/**
 * Any UTF-16 code unit, lone surrogates included. Built by hand: fast-check's own `'binary'` unit
 * costs seconds to construct, which would dominate a 25-run property.
 */
const codeUnit = (): fc.Arbitrary<string> =>
  fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));

/** Lossless JSON of any shape, with strings over all UTF-16 code units. */
export const losslessJson = (): fc.Arbitrary<unknown> =>
  fc.jsonValue({ maxDepth: 3, stringUnit: codeUnit() }).filter((v) => !holdsNegativeZero(v));

const text = (): fc.Arbitrary<string> => fc.string({ unit: codeUnit(), maxLength: 40 });
const time = (): fc.Arbitrary<number> => fc.integer({ min: 0, max: 2 ** 42 });

/** A type no core schema claims: stored and read back opaquely. */
export const unknownEventType = (): fc.Arbitrary<string> => fc.stringMatching(/^x-[a-z]{1,6}\/[a-z-]{1,8}$/);

/**
 * Event inputs a live `Session` accepts: unknown types with arbitrary lossless data, and core
 * types with random (valid) payloads. Turn structure is deliberately random — persistence must
 * store whatever the session accepted.
 */
export const eventInput = (): fc.Arbitrary<SessionEventInput> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.record({ type: unknownEventType(), data: losslessJson(), time: time() }) },
    fc.record({
      type: fc.constant('user/message'),
      data: fc.record({ content: text(), author: fc.constantFrom('human', 'agent', 'system') }),
      time: time(),
    }),
    fc.record({ type: fc.constant('session/title'), data: fc.record({ title: text() }), time: time() }),
    fc.record({
      type: fc.constant('tool/call'),
      data: fc.record({ callId: text(), name: text(), arguments: text() }),
      time: time(),
    }),
    fc.record({
      type: fc.constantFrom('turn/start', 'step/start', 'step/end'),
      data: fc.constant({}),
      time: time(),
    }),
  );

/** Random append batches (each non-empty), as a live session would hand them to its writer. */
export const eventBatches = (): fc.Arbitrary<SessionEventInput[][]> =>
  fc.array(fc.array(eventInput(), { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 6 });
