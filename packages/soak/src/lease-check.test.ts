import { describe, expect, it } from 'vitest';
import { checkTakeovers, type KilledLeases } from './lease-check.js';
import type { Acknowledged } from './ledger.js';

// Clients 0 and 2 talk to host 0, client 1 to host 1.
const hostOf = (client: number): number => client % 2;
const killed: KilledLeases = { host: 0, killedAt: 1_000, expiresAt: new Map([['s1', 4_000]]) };
const ack = (client: number, session: string, at: number): Acknowledged => ({
  session,
  method: 'session.rename',
  seq: 3,
  client,
  at,
});

describe('the lease promise: a killed host’s session is taken over only after its lease ran out', () => {
  it('reports a write the other host acknowledged before the lease ran out, with its session', () => {
    const { early, takenOver } = checkTakeovers([ack(1, 's1', 3_999)], [killed], hostOf);
    expect(early).toHaveLength(1);
    expect(early[0]).toMatchObject({ promise: 'lease', session: 's1' });
    expect(early[0]!.detail).toContain('before host 0');
    expect(takenOver).toBe(0);
  });

  it('counts the sessions the other host wrote to once the lease ran out', () => {
    const { early, takenOver } = checkTakeovers([ack(1, 's1', 4_000), ack(1, 's1', 5_000)], [killed], hostOf);
    expect(early).toEqual([]);
    expect(takenOver).toBe(1);
  });

  it('ignores the killed host’s own restarted writes, writes answered before the kill, other sessions and the setup’s', () => {
    const acks: Acknowledged[] = [
      ack(2, 's1', 2_000),
      ack(1, 's1', 900),
      ack(1, 's2', 2_000),
      { session: 's1', method: 'session.create' },
    ];
    expect(checkTakeovers(acks, [killed], hostOf)).toEqual({ early: [], takenOver: 0 });
  });
});
