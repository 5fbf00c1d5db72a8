import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SessionId } from '@strand/session';
import type { ShareGrant } from './grant-store.js';
import { grantCovers } from './share-scope.js';

type Header = { origin?: 'subagent'; parentSession?: SessionId };

/** A random forest `s0…sN`: each session top-level, a subagent of an earlier one, or a child without `origin`. */
const forest = fc.integer({ min: 1, max: 12 }).chain((n) =>
  fc.tuple(
    ...Array.from({ length: n }, (_, i) =>
      i === 0
        ? fc.constant<Header>({})
        : fc.oneof(
            fc.constant<Header>({}),
            fc.nat(i - 1).map((p): Header => ({ origin: 'subagent', parentSession: `s${p}` as SessionId })),
            fc.nat(i - 1).map((p): Header => ({ parentSession: `s${p}` as SessionId })),
          ),
    ),
  ),
);

/** The reference: the shared session, or (with descendants) one reached by subagent parent links. */
function reference(headers: readonly Header[], shared: string, descendants: boolean, id: string): boolean {
  if (id === shared) return true;
  if (!descendants) return false;
  const header = headers[Number(id.slice(1))];
  if (header?.origin !== 'subagent' || header.parentSession === undefined) return false;
  return reference(headers, shared, descendants, header.parentSession);
}

describe('grantCovers', () => {
  it('covers exactly the shared session and, with descendants, its subagent tree (a missing session is not covered)', async () => {
    await fc.assert(
      fc.asyncProperty(
        forest,
        fc.nat(11),
        fc.boolean(),
        fc.nat(12),
        async (headers, s, descendants, probe) => {
          const shared = `s${s % headers.length}`;
          const grant: ShareGrant = {
            grantId: 'sg_x',
            tokenHash: '0'.repeat(64),
            sessionId: shared,
            descendants,
            expiresAt: null,
            label: null,
            createdBy: 'web',
            createdAt: 0,
            revokedAt: null,
          };
          const headerOf = (id: string): Promise<Header | undefined> =>
            Promise.resolve(headers[Number(id.slice(1))]);
          const id = `s${probe}`;
          const expected = probe < headers.length && reference(headers, shared, descendants, id);
          expect(await grantCovers(grant, id, headerOf)).toBe(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});
