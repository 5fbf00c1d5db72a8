/**
 * The lease table and its statements. Every time comparison uses the database clock (`now()`),
 * never a host's: hosts disagree about the time, the database is the one referee they share.
 * Statements take values only as parameters; the ttl travels in milliseconds.
 */
export const COORDINATION_COMPONENT = 'coordination';
export const COORDINATION_SCHEMA_VERSION = 1;

export const LEASES_DDL = `
CREATE TABLE strand_session_leases (
  session_id text PRIMARY KEY,
  owner text NOT NULL,
  expires_at timestamptz NOT NULL
)`;

const EXPIRY = `now() + ($3::double precision * interval '1 millisecond')`;

/** Takes a free or expired lease, or extends our own; returns a row only when it is ours now. */
export const ACQUIRE = `
INSERT INTO strand_session_leases AS l (session_id, owner, expires_at)
VALUES ($1, $2, ${EXPIRY})
ON CONFLICT (session_id) DO UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at
WHERE l.expires_at <= now() OR l.owner = EXCLUDED.owner
RETURNING session_id`;

/** The live holder of a lease, if any (read after a refused acquire, to name it). */
export const HOLDER = `
SELECT owner, expires_at FROM strand_session_leases WHERE session_id = $1 AND expires_at > now()`;

/**
 * Extends every lease we still own among `$2`. A row whose owner is still us proves nobody took
 * it since (a taker rewrites the owner; a taker that released deletes the row), so an expired
 * row of ours is safely extended too.
 */
export const RENEW = `
UPDATE strand_session_leases SET expires_at = now() + ($3::double precision * interval '1 millisecond')
WHERE owner = $1 AND session_id = ANY($2::text[])
RETURNING session_id`;

export const RELEASE = `DELETE FROM strand_session_leases WHERE session_id = $1 AND owner = $2`;

export const RELEASE_ALL = `DELETE FROM strand_session_leases WHERE owner = $1`;

export const OWNED_ELSEWHERE = `
SELECT session_id, owner, expires_at FROM strand_session_leases WHERE owner <> $1 AND expires_at > now()`;
