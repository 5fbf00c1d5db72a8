import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { isPersistenceError } from '@strand/persistence';
import { SessionId, SessionSeq, type Session } from '@strand/session';
import { closedTurn, createWritingSession, testHeader, writingSession } from '@strand/test-support';
import { noPostgres } from '../testing/index.js';
import { persistenceHosts } from '../testing/persistence-hosts.js';
import { openPostgresPersistence } from './open-postgres-persistence.js';
import type { PostgresPersistence } from './postgres-persistence.js';
import { encodeBatchRows } from './batch-lines.js';
import { sendRound } from './write-round.js';

/** The names of the statements the pools of this process sent while `body` ran. */
async function statementsSentBy(body: () => Promise<unknown>): Promise<(string | undefined)[]> {
  const spy = vi.spyOn(pg.Pool.prototype, 'query');
  try {
    await body();
    return spy.mock.calls.map(([config]) => (config as { name?: string }).name);
  } finally {
    spy.mockRestore();
  }
}

describe.skipIf(noPostgres)('PostgreSQL appends of many sessions at once', () => {
  const { host, url, cleanup, listenAppends } = persistenceHosts((at) =>
    openPostgresPersistence({ url: at, poolSize: 2 }),
  );

  async function started(p: PostgresPersistence, count: number): Promise<Session[]> {
    const sessions = await Promise.all(
      Array.from({ length: count }, (_, i) => createWritingSession(p, testHeader(`fan-${i}`))),
    );
    await Promise.all(sessions.map((s) => s.append(closedTurn('first'))));
    return sessions;
  }

  it('sends the appends of different sessions pending at once as one statement, each durable when it resolves', async () => {
    const p = await host();
    const sessions = await started(p, 8);
    const sent = await statementsSentBy(() =>
      Promise.all(sessions.map((s) => s.append(closedTurn('second')))),
    );
    expect(sent.filter((name) => name === 'strand_persistence_append_round')).toHaveLength(1);
    expect(sent).not.toContain('strand_persistence_append');
    const reader = await host();
    for (const s of sessions) expect((await reader.inspect(s.id)).events).toEqual(s.events);
  });

  it('writes first appends (lazy creations) of many sessions in one statement', async () => {
    const p = await host();
    let sessions: Session[] = [];
    const sent = await statementsSentBy(async () => {
      sessions = await started(p, 5);
    });
    expect(sent.filter((name) => name === 'strand_persistence_append_round')).toHaveLength(1);
    expect(sent).not.toContain('strand_persistence_create');
    const reader = await host();
    expect((await reader.list()).map((s) => s.header.id).sort()).toEqual(sessions.map((s) => s.id).sort());
  });

  it('announces each write of a round with its own exact notice, a first write and an append alike', async () => {
    const p = await host();
    const { payloads, received } = await listenAppends();
    const sessions = await started(p, 3);
    const fresh = await createWritingSession(p, testHeader('fan-fresh'));
    await Promise.all([...sessions, fresh].map((s) => s.append(closedTurn('next'))));
    await received();
    const expected = await Promise.all(
      [...sessions, fresh].map(async (s) => {
        const from = s === fresh ? 0 : closedTurn('first').length;
        const count = closedTurn('next').length;
        const revision = (await p.revisionOf(s.id))!;
        return JSON.stringify({ id: s.id, incarnation: s.incarnation, from, count, revision });
      }),
    );
    expect(payloads.slice(-4).sort()).toEqual(expected.sort());
  });

  it('fails only the append another host got ahead of; the others of its round commit', async () => {
    const p = await host();
    const sessions = await started(p, 6);
    const raced = sessions[2]!;
    // Another host moves session 2's log on: this host's next append to it is stale.
    const other = await host();
    const stored = await other.inspect(raced.id);
    await writingSession(other, raced.header, stored.incarnation, { events: stored.events }).append(
      closedTurn('elsewhere'),
    );
    const outcomes = await Promise.allSettled(sessions.map((s) => s.append(closedTurn('second'))));
    expect(outcomes.map((o) => o.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ]);
    expect(isPersistenceError(raced.writeFailure?.cause, 'PERSISTENCE_SEQ_CONFLICT')).toBe(true);
    const reader = await host();
    for (const s of sessions.filter((s) => s !== raced)) {
      expect((await reader.inspect(s.id)).events).toEqual(s.events);
    }
    expect((await reader.inspect(raced.id)).events.length).toBe(
      stored.events.length + closedTurn('elsewhere').length,
    );
  });

  it('when the server refuses a round as a whole, sends each write alone so only the one at fault fails', async () => {
    const p = await host();
    const sessions = await started(p, 3);
    const pool = new pg.Pool({ connectionString: url(), max: 2 });
    cleanup(() => pool.end());
    // One more event each, continuing each log (a copy of its first event under the next seq).
    const rows = sessions.map(
      (s) => encodeBatchRows([{ ...s.events[0]!, seq: SessionSeq(s.events.length) }], s.events.length)[0]!,
    );
    // A first seq past PostgreSQL's int range: the round's statement fails as a whole (22003).
    const outOfRange = { ...rows[1]!, firstSeq: 2 ** 31 };
    const outcomes = await sendRound(pool, [
      { id: sessions[0]!.id, row: rows[0]!, pending: undefined, incarnation: undefined },
      { id: sessions[1]!.id, row: outOfRange, pending: undefined, incarnation: undefined },
      { id: SessionId('never-created'), row: rows[2]!, pending: undefined, incarnation: undefined },
    ]);
    expect(outcomes[0]?.kind).toBe('written');
    expect(outcomes[1]?.kind).toBe('failed');
    expect(outcomes[2]).toMatchObject({ kind: 'failed' });
    expect(
      outcomes[2]?.kind === 'failed' && isPersistenceError(outcomes[2].error, 'PERSISTENCE_NOT_FOUND'),
    ).toBe(true);
    expect((await p.inspect(sessions[0]!.id)).events.length).toBe(sessions[0]!.events.length + 1);
    expect((await p.inspect(sessions[1]!.id)).events).toEqual(sessions[1]!.events);
  });
});
