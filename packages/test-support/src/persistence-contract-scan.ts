import { expect, it } from 'vitest';
import type { SessionEvent } from '@strand/session';
import { closedTurn, crashedTurn, createWritingSession, testHeader } from './log-builders.js';
import { isDeepFrozen, rejectsWith, type WithStore } from './persistence-contract-harness.js';
import { workloadTurns } from '@strand/workload';

/** What a projection fold of the built-in units reads the data of (any set works; this is typical). */
const DATA_TYPES: ReadonlySet<string> = new Set(['user/message', 'assistant/message', 'session/title']);

/** Enough standard turns that a compressed JSONL log takes its streamed (elidable) path. */
const LARGE_LOG_EVENTS = 1_200;

/**
 * `scan` agrees with `inspect` on everything it promises: the same envelopes, the requested
 * types' data, each other event's data intact or `null`, the same exact repairs.
 */
function expectScanAgrees(
  scanned: readonly SessionEvent[],
  inspected: readonly SessionEvent[],
  dataTypes: ReadonlySet<string>,
): void {
  expect(scanned).toHaveLength(inspected.length);
  for (let i = 0; i < inspected.length; i++) {
    const [s, e] = [scanned[i]!, inspected[i]!];
    expect({ type: s.type, seq: s.seq, time: s.time }).toEqual({ type: e.type, seq: e.seq, time: e.time });
    if (dataTypes.has(e.type) || s.data !== null) expect(s.data, `data of seq ${e.seq}`).toEqual(e.data);
    expect(isDeepFrozen(s)).toBe(true);
  }
}

/** The persistence `scan`: a whole-log read that may skip the data of types nobody asked for. */
export function scanBehaviour(withStore: WithStore): void {
  for (const ending of ['closed', 'crashed'] as const) {
    it(`scan of a large log ending ${ending} agrees with inspect: envelopes, requested data, exact repairs`, () =>
      withStore(async (store) => {
        const session = await createWritingSession(store.p, testHeader(`scan-${ending}`));
        for (const turn of workloadTurns(3, LARGE_LOG_EVENTS)) await session.append(turn);
        await session.append(ending === 'closed' ? closedTurn('last') : crashedTurn('boom', ['c1', 'c2']));
        const p = await store.reopen();
        const before = await p.revisionOf(session.id);
        const inspected = await p.inspect(session.id);
        const scanned = await p.scan(session.id, { dataTypes: DATA_TYPES });
        expectScanAgrees(scanned.events, inspected.events, DATA_TYPES);
        expect(scanned.repairs).toEqual(inspected.repairs);
        expect(scanned.repairs.length > 0).toBe(ending === 'crashed');
        const { events: _e, repairs: _r, ...facts } = scanned;
        const { events: _ie, repairs: _ir, ...inspectedFacts } = inspected;
        expect(facts).toEqual(inspectedFacts);
        // Non-mutating, like inspect: a crashed log is not repaired by a scan.
        expect(await p.revisionOf(session.id)).toBe(before);
      }));
  }

  it('scan of a small log, of an empty dataTypes set and of unknown types agrees with inspect', () =>
    withStore(async ({ p }) => {
      const session = await createWritingSession(p, testHeader('scan-small'));
      await session.append(closedTurn('a'));
      await session.append({ type: 'x-plugin/"quoted"\\type', data: { keep: [1, 2] } });
      for (const dataTypes of [DATA_TYPES, new Set<string>(), new Set(['x-plugin/"quoted"\\type'])]) {
        const scanned = await p.scan(session.id, { dataTypes });
        expectScanAgrees(scanned.events, session.events, dataTypes);
        expect(scanned.repairs).toEqual([]);
      }
    }));

  it('scan of an unknown session is PERSISTENCE_NOT_FOUND; an aborted scan is PERSISTENCE_ABORTED', () =>
    withStore(async ({ p }) => {
      await rejectsWith(p.scan(testHeader('nobody').id, { dataTypes: DATA_TYPES }), 'PERSISTENCE_NOT_FOUND');
      const session = await createWritingSession(p, testHeader('scan-aborted'));
      await session.append(closedTurn('a'));
      const controller = new AbortController();
      controller.abort(new Error('caller gave up'));
      await rejectsWith(
        p.scan(session.id, { dataTypes: DATA_TYPES, signal: controller.signal }),
        'PERSISTENCE_ABORTED',
      );
    }));
}
