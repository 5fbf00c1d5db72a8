/**
 * One share grant: a read-only link to one session. Only the token's hash is kept, so a stolen
 * store (or `share.list`) yields no working link. Times are epoch milliseconds.
 */
export interface ShareGrant {
  readonly grantId: string;
  /** SHA-256 of the share token, hex (`hashShareToken`). */
  readonly tokenHash: string;
  readonly sessionId: string;
  /** The shared session's subagent tree is readable too. */
  readonly descendants: boolean;
  /** null: never expires. */
  readonly expiresAt: number | null;
  readonly label: string | null;
  /** `cli:<os user>` or `web`. */
  readonly createdBy: string;
  readonly createdAt: number;
  /** null while not revoked. A revoked grant is kept, so its token is told `revoked`, not `invalid`. */
  readonly revokedAt: number | null;
}

/**
 * Where grants are kept, beside the corpus: a file in the data folder, or a table of the shared
 * PostgreSQL database (so every host of it honours them). Asynchronous because a database is.
 * Engines are held to one contract suite (`share/testing/grant-store-contract.ts`).
 */
export interface ShareGrantStore {
  /** Stores a new grant; its id and token hash are new (the caller drew them at random). */
  add(grant: ShareGrant): Promise<void>;
  byTokenHash(tokenHash: string): Promise<ShareGrant | undefined>;
  byId(grantId: string): Promise<ShareGrant | undefined>;
  /** Every grant, revoked and expired ones too, oldest first. */
  list(): Promise<readonly ShareGrant[]>;
  /**
   * Marks the grant revoked at `at` and returns it as stored; a grant revoked already keeps its
   * first `revokedAt`. Undefined: no such grant.
   */
  revoke(grantId: string, at: number): Promise<ShareGrant | undefined>;
  /**
   * Revokes made anywhere the grants are shared (another host of one PostgreSQL database), by
   * grant id, so this host closes that grant's open connections too; absent where only this
   * process writes the grants. Returns the unsubscribe.
   */
  watchRevocations?(listener: (grantId: string) => void): () => void;
}
