import { expect, it } from 'vitest';
import type { SessionPersistence } from '@strand/persistence';
import { closedTurn, createWritingSession, testHeader } from './log-builders.js';
import type { WithStore } from './persistence-contract-harness.js';

/** The marker now; a backend without one answers undefined (it cannot tell: callers assume a change). */
const markerOf = (p: SessionPersistence): Promise<string | undefined> =>
  p.changeMarker?.() ?? Promise.resolve(undefined);

/**
 * `changeMarker`: moves with every session reaching storage, delete and re-create, never with an
 * append, and survives a restart. A backend that cannot tell answers undefined every time — never
 * a value it would not move.
 */
export function changeMarkerBehaviour(withStore: WithStore): void {
  it('moves the change marker when a session is stored, deleted or re-created, and never on an append', () =>
    withStore(async (store) => {
      const first = await markerOf(store.p);
      const seen: (string | undefined)[] = [first];
      const expectMoved = async (): Promise<void> => {
        const now = await markerOf(store.p);
        if (first === undefined) expect(now).toBeUndefined();
        else expect(seen).not.toContain(now);
        seen.push(now);
      };
      const expectStill = async (): Promise<void> => {
        expect(await markerOf(store.p)).toBe(seen.at(-1));
      };

      const header = testHeader('marked');
      const old = await createWritingSession(store.p, header);
      await old.append(closedTurn('stored at its first append'));
      await expectMoved();
      await old.append(closedTurn('an append alone'));
      await expectStill();

      // A materialized create is stored at once.
      await store.p.create({ header: testHeader('materialized'), materialize: true });
      await expectMoved();

      await store.p.delete(header.id);
      await expectMoved();
      // Deleted and created again: the same id and the same count of sessions as before the
      // delete, but another incarnation — the marker must not come back to an earlier value.
      const reborn = await createWritingSession(store.p, header);
      await reborn.append(closedTurn('a new life'));
      await expectMoved();
      await reborn.append(closedTurn('another append'));
      await expectStill();

      // Durable: a restart finds the same marker, and it keeps moving from there.
      await store.reopen();
      await expectStill();
      await store.p.delete(header.id);
      await expectMoved();
    }));
}
