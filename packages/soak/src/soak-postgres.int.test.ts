import { noPostgres } from '@strand/postgres/testing';
import { testSeed } from '@strand/test-support';
import { describe, expect, it } from 'vitest';
import { expectGreen } from './expect-green.js';
import { runPostgresSoak } from './soak-postgres.js';

describe.skipIf(noPostgres)('a short soak of two hosts on one PostgreSQL database', () => {
  it('survives three kills of either host, write faults, terminated backends and a lease left to expire with nothing lost, no undocumented refusal, no lease left, every session reopened', async () => {
    const seed = testSeed();
    const run = await runPostgresSoak({
      minutes: 0.01,
      seed,
      clients: 4,
      sessions: 6,
      leaseTtlMs: 1_000,
    });
    expectGreen(run, seed);
    const { summary } = run;
    expect(summary.takenEarly).toBe(0);
    expect(summary.terminations).toBeGreaterThanOrEqual(2);
    expect(summary.acknowledged).toBeGreaterThan(6);
    expect(summary.sessions).toBeGreaterThanOrEqual(6);
  }, 120_000);
});
