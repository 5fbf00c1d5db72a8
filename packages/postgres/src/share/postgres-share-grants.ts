import pg from 'pg';
import { reportTo, silentLogger, type Logger } from '@strand/session';
import { NoticeListener } from '../cache/notice-listener.js';
import { prepareShareGrantsSchema, SHARE_REVOKED_CHANNEL } from './schema.js';

/**
 * A share grant as stored: the same shape as `@strand/host`'s `ShareGrant` (this package may not
 * import the host; the runtime hands this store to the host, which checks the two agree).
 */
export interface StoredShareGrant {
  readonly grantId: string;
  readonly tokenHash: string;
  readonly sessionId: string;
  readonly descendants: boolean;
  readonly expiresAt: number | null;
  readonly label: string | null;
  readonly createdBy: string;
  readonly createdAt: number;
  readonly revokedAt: number | null;
}

export interface PostgresShareGrantsOptions {
  /** `postgres://…` of the shared database. */
  readonly url: string;
  /** Lost and resumed notice connections. Default: `silentLogger`. */
  readonly logger?: Logger;
  /** Reconnect backoff of the revocation listener (default 100 ms doubling up to 5 s). */
  readonly reconnectMs?: { readonly first: number; readonly max: number };
}

/** `application_name` of the grants' pool and of their revocation listener. */
export const SHARE_GRANTS_APPLICATION_NAME = 'strand-share-grants';

type Row = {
  grant_id: string;
  token_hash: string;
  session_id: string;
  descendants: boolean;
  expires_at: string | null;
  label: string | null;
  created_by: string;
  created_at: string;
  revoked_at: string | null;
};

const COLUMNS =
  'grant_id, token_hash, session_id, descendants, expires_at, label, created_by, created_at, revoked_at';

// `bigint` arrives as text (it may exceed 2^53); epoch milliseconds never do.
const millis = (text: string | null): number | null => (text === null ? null : Number(text));

function grantOf(row: Row): StoredShareGrant {
  return {
    grantId: row.grant_id,
    tokenHash: row.token_hash,
    sessionId: row.session_id,
    descendants: row.descendants,
    expiresAt: millis(row.expires_at),
    label: row.label,
    createdBy: row.created_by,
    createdAt: Number(row.created_at),
    revokedAt: millis(row.revoked_at),
  };
}

/**
 * Share grants in the shared database's `share_grants` table, so every host of it honours a grant
 * made on any of them. A revoke commits with a `pg_notify` of its grant id; every instance LISTENs
 * and tells its `watchRevocations` listeners, so the other hosts close that grant's connections
 * within milliseconds. After the listening connection was lost (notices missed meanwhile) it
 * reports every revoked grant once it listens again: closing a grant without connections is free.
 */
export class PostgresShareGrants {
  readonly #pool: pg.Pool;
  readonly #listener: NoticeListener;
  readonly #watchers = new Set<(grantId: string) => void>();
  readonly #report: (error: unknown) => void;

  private constructor(pool: pg.Pool, options: PostgresShareGrantsOptions) {
    this.#pool = pool;
    const logger = options.logger ?? silentLogger;
    this.#report = reportTo(logger, 'share grants: a failure was contained');
    this.#listener = new NoticeListener({
      url: options.url,
      channel: SHARE_REVOKED_CHANNEL,
      logger,
      applicationName: SHARE_GRANTS_APPLICATION_NAME,
      subject: 'share revokes',
      onNotice: (grantId) => this.#revoked(grantId),
      onReconnected: () => void this.#resync(),
      ...(options.reconnectMs === undefined ? {} : { backoffMs: options.reconnectMs }),
    });
  }

  /** Creates the table if needed (or refuses a newer schema) and starts listening for revokes. */
  static async open(options: PostgresShareGrantsOptions): Promise<PostgresShareGrants> {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: 2,
      application_name: SHARE_GRANTS_APPLICATION_NAME,
      connectionTimeoutMillis: 10_000,
    });
    // An idle pooled connection the server ends (pg_terminate_backend, a restart) is reported here
    // and dropped by the pool; without a listener Node would end the process (found by the soak).
    pool.on('error', reportTo(options.logger ?? silentLogger, 'share grants: an idle connection failed'));
    try {
      await prepareShareGrantsSchema(pool);
      const grants = new PostgresShareGrants(pool, options);
      await grants.#listener.start();
      return grants;
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw error;
    }
  }

  async add(grant: StoredShareGrant): Promise<void> {
    await this.#pool.query(
      `INSERT INTO share_grants (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        grant.grantId,
        grant.tokenHash,
        grant.sessionId,
        grant.descendants,
        grant.expiresAt,
        grant.label,
        grant.createdBy,
        grant.createdAt,
        grant.revokedAt,
      ],
    );
  }

  byTokenHash(tokenHash: string): Promise<StoredShareGrant | undefined> {
    return this.#one(`SELECT ${COLUMNS} FROM share_grants WHERE token_hash = $1`, [tokenHash]);
  }

  byId(grantId: string): Promise<StoredShareGrant | undefined> {
    return this.#one(`SELECT ${COLUMNS} FROM share_grants WHERE grant_id = $1`, [grantId]);
  }

  async list(): Promise<readonly StoredShareGrant[]> {
    const result = await this.#pool.query<Row>(
      `SELECT ${COLUMNS} FROM share_grants ORDER BY created_at, grant_id`,
    );
    return result.rows.map(grantOf);
  }

  /**
   * One statement: the first `revoked_at` is kept, and the notice is sent with the commit (the
   * other hosts hear it only once the revoke is durable). A repeated revoke notifies again, which
   * closes nothing new.
   */
  revoke(grantId: string, at: number): Promise<StoredShareGrant | undefined> {
    return this.#one(
      `WITH revoked AS (
         UPDATE share_grants SET revoked_at = COALESCE(revoked_at, $2) WHERE grant_id = $1 RETURNING ${COLUMNS}
       )
       SELECT ${COLUMNS}, pg_notify('${SHARE_REVOKED_CHANNEL}', grant_id) FROM revoked`,
      [grantId, at],
    );
  }

  /** Every revoke on any host of the database, by grant id (this one's too). Returns the unsubscribe. */
  watchRevocations(listener: (grantId: string) => void): () => void {
    this.#watchers.add(listener);
    return () => this.#watchers.delete(listener);
  }

  async close(): Promise<void> {
    this.#watchers.clear();
    await this.#listener.stop();
    await this.#pool.end();
  }

  async #one(text: string, values: unknown[]): Promise<StoredShareGrant | undefined> {
    const row = (await this.#pool.query<Row>(text, values)).rows[0];
    return row === undefined ? undefined : grantOf(row);
  }

  #revoked(grantId: string): void {
    for (const watcher of [...this.#watchers]) {
      try {
        watcher(grantId);
      } catch (error) {
        this.#report(error);
      }
    }
  }

  async #resync(): Promise<void> {
    try {
      const result = await this.#pool.query<{ grant_id: string }>(
        'SELECT grant_id FROM share_grants WHERE revoked_at IS NOT NULL',
      );
      for (const row of result.rows) this.#revoked(row.grant_id);
    } catch (error) {
      this.#report(error);
    }
  }
}
