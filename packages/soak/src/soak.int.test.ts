import { replayHint, testSeed } from '@strand/test-support';
import { describe, expect, it } from 'vitest';
import { runSoak } from './soak.js';

describe('a short soak against the real host', () => {
  // Five host processes start one after another on a shared 2-core machine: room, not a figure.
  it('survives three kills and a fault in every host incarnation with nothing lost, no undocumented refusal, no lock left, every session reopened', async () => {
    const seed = testSeed();
    const { summary, failure } = await runSoak({ minutes: 0.05, seed, clients: 6, sessions: 10 });
    expect(failure, `${replayHint(seed)}: ${JSON.stringify(summary)}`).toBeUndefined();
    expect(summary).toMatchObject({
      seed,
      lostAcknowledged: 0,
      lostDelivered: 0,
      undocumentedRefusals: 0,
      locksLeft: 0,
      crashes: 0,
      notReopened: 0,
    });
    expect(summary.kills).toBeGreaterThanOrEqual(3);
    expect(summary.faults).toBeGreaterThanOrEqual(3);
    // The run did something worth checking: writes acknowledged, events delivered.
    expect(summary.acknowledged).toBeGreaterThan(10);
    expect(summary.delivered).toBeGreaterThan(0);
    expect(summary.sessions).toBeGreaterThanOrEqual(10);
  }, 240_000);
});
