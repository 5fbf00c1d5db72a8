import { replayHint } from '@strand/test-support';
import { expect } from 'vitest';
import type { Verdict } from './checker.js';

/** What a green run's summary holds, whichever variant: test code (the soaks' suite tests). */
interface RunFigures extends Omit<Verdict, 'broken'> {
  readonly seed: number;
  readonly kills: number;
  readonly faults: number;
  readonly acknowledged: number;
}

/** A run kept every promise: no failure (its message names the replay), nothing lost, three kills and faults. */
export function expectGreen(run: { summary: RunFigures; failure?: string }, seed: number): void {
  expect(run.failure, `${replayHint(seed)}: ${JSON.stringify(run.summary)}`).toBeUndefined();
  expect(run.summary).toMatchObject({
    seed,
    lostAcknowledged: 0,
    lostDelivered: 0,
    undocumentedRefusals: 0,
    locksLeft: 0,
    crashes: 0,
    notReopened: 0,
  });
  expect(run.summary.kills).toBeGreaterThanOrEqual(3);
  expect(run.summary.faults).toBeGreaterThanOrEqual(3);
}
