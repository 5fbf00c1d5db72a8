import { testSeed } from '@strand/test-support';
import { describe, expect, it } from 'vitest';
import { expectGreen } from './expect-green.js';
import { runSoak } from './soak.js';

describe('a short soak against the real host', () => {
  // Five host processes start one after another on a shared 2-core machine: room, not a figure.
  it('survives three kills and a fault in every host incarnation with nothing lost, no undocumented refusal, no lock left, every session reopened', async () => {
    const seed = testSeed();
    const run = await runSoak({ minutes: 0.05, seed, clients: 6, sessions: 10 });
    expectGreen(run, seed);
    const { summary } = run;
    // The run did something worth checking: writes acknowledged, events delivered.
    expect(summary.acknowledged).toBeGreaterThan(10);
    expect(summary.delivered).toBeGreaterThan(0);
    expect(summary.sessions).toBeGreaterThanOrEqual(10);
  }, 240_000);
});
