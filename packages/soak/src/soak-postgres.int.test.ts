import { noPostgres } from '@strand/postgres/testing';
import { replayHint, testSeed } from '@strand/test-support';
import { describe, expect, it } from 'vitest';
import { runPostgresSoak } from './soak-postgres.js';

describe.skipIf(noPostgres)('a short soak of two hosts on one PostgreSQL database', () => {
  it('survives three kills of either host, write faults, terminated backends and a lease left to expire with nothing lost, no undocumented refusal, no lease left, every session reopened', async () => {
    const seed = testSeed();
    const { summary, failure } = await runPostgresSoak({
      minutes: 0.01,
      seed,
      clients: 4,
      sessions: 6,
      leaseTtlMs: 1_000,
    });
    expect(failure, `${replayHint(seed)}: ${JSON.stringify(summary)}`).toBeUndefined();
    expect(summary).toMatchObject({
      seed,
      lostAcknowledged: 0,
      lostDelivered: 0,
      undocumentedRefusals: 0,
      locksLeft: 0,
      crashes: 0,
      notReopened: 0,
      takenEarly: 0,
    });
    expect(summary.kills).toBeGreaterThanOrEqual(3);
    expect(summary.faults).toBeGreaterThanOrEqual(3);
    expect(summary.terminations).toBeGreaterThanOrEqual(2);
    expect(summary.acknowledged).toBeGreaterThan(6);
    expect(summary.sessions).toBeGreaterThanOrEqual(6);
  }, 120_000);
});
