import { DEFAULT_SHARE_EXPIRY_MS, type METHODS, type ResultOf, type ShareGrantView } from '@strand/protocol';
import { SessionQueryError } from '@strand/query';
import type { Logger } from '@strand/session';
import type { z } from 'zod';
import { HostError } from '../errors.js';
import { grantStatus, grantView, type GrantStatus } from './grant-status.js';
import type { ShareGrant, ShareGrantStore } from './grant-store.js';
import { notFoundForShare } from './share-gate.js';
import type { HeaderOf } from './share-scope.js';
import { hashShareToken, newGrantId, newShareToken } from './share-token.js';
import { armExpiry, type ShareTimers } from './expiry-timer.js';

/** Why the host closes a share connection. */
export type ShareCloseReason = 'HOST_SHARE_REVOKED' | 'HOST_SHARE_EXPIRED';

type Params<M extends 'share.create' | 'share.list' | 'share.revoke'> = z.output<
  (typeof METHODS)[M]['params']
>;

export interface ShareServiceOptions {
  readonly store: ShareGrantStore | undefined;
  /** The host requires a token: without one, a link grants nothing anyone lacks, and is refused. */
  readonly tokenRequired: boolean;
  /** Where links point: `--public-url`, else the address the host listens on. */
  readonly baseUrl: string;
  readonly now: () => number;
  /** What a connection's expiry is armed on (`now` is read again when a timer fires). */
  readonly timers: ShareTimers;
  readonly logger: Logger;
  readonly headerOf: HeaderOf;
}

/** What a presented token is as a share token. */
export type ShareTokenLookup =
  | { readonly kind: 'unknown' }
  | { readonly kind: GrantStatus; readonly grant: ShareGrant };

/**
 * The host's share grants: making, listing and revoking them (`share.*`), resolving a presented
 * token, and the open connections of each grant, so a revoke closes them at once. Every grant,
 * revoke and share connection is an audit line in the host's log.
 */
export class ShareService {
  readonly #options: ShareServiceOptions;
  readonly #open = new Map<string, Set<() => void>>();
  readonly #unwatch: (() => void) | undefined;

  constructor(options: ShareServiceOptions) {
    this.#options = options;
    // A revoke on another host of a shared store closes this host's connections of the grant too.
    this.#unwatch = options.store?.watchRevocations?.((grantId) => this.closeConnections(grantId));
  }

  /** Stops hearing other hosts' revokes (the server is closing). */
  close(): void {
    this.#unwatch?.();
  }

  get enabled(): boolean {
    return this.#options.store !== undefined;
  }

  async lookup(token: string): Promise<ShareTokenLookup> {
    const store = this.#options.store;
    if (store === undefined) return { kind: 'unknown' };
    const grant = await this.#stored('read', () => store.byTokenHash(hashShareToken(token)));
    return grant === undefined
      ? { kind: 'unknown' }
      : { kind: grantStatus(grant, this.#options.now()), grant };
  }

  async create(params: Params<'share.create'>): Promise<ResultOf<'share.create'>> {
    const store = this.#usable();
    if ((await this.#options.headerOf(params.id)) === undefined) {
      throw new SessionQueryError('SESSION_QUERY_NOT_FOUND', notFoundForShare(params.id).message, {
        sessionId: params.id,
      });
    }
    const now = this.#options.now();
    const token = newShareToken();
    const expiresIn = params.expiresInMs === undefined ? DEFAULT_SHARE_EXPIRY_MS : params.expiresInMs;
    const grant: ShareGrant = {
      grantId: newGrantId(),
      tokenHash: hashShareToken(token),
      sessionId: params.id,
      descendants: params.descendants ?? false,
      expiresAt: expiresIn === null ? null : now + expiresIn,
      label: params.label ?? null,
      createdBy: params.createdBy,
      createdAt: now,
      revokedAt: null,
    };
    await this.#stored('write', () => store.add(grant));
    const view = grantView(grant, now);
    this.#options.logger.info('share: grant created', auditFields(view));
    return {
      url: `${this.#options.baseUrl}/share/${token}`,
      grantId: grant.grantId,
      shareToken: token,
      expiresAt: view.expiresAt,
    };
  }

  async list(params: Params<'share.list'>): Promise<ResultOf<'share.list'>> {
    const store = this.#usable();
    const now = this.#options.now();
    const grants = (await this.#stored('read', () => store.list())).filter(
      (g) => params.id === undefined || g.sessionId === params.id,
    );
    return { grants: grants.map((grant) => grantView(grant, now)) };
  }

  /** Revokes by grant id or by the token itself, then closes every open connection of the grant. */
  async revoke(params: Params<'share.revoke'>): Promise<ResultOf<'share.revoke'>> {
    const store = this.#usable();
    const found = await this.#stored(
      'read',
      async () => (await store.byId(params.grant)) ?? (await store.byTokenHash(hashShareToken(params.grant))),
    );
    if (found === undefined)
      throw new HostError('HOST_SHARE_NOT_FOUND', 'no share grant has that id or token');
    const already = found.revokedAt !== null;
    const revoked =
      (await this.#stored('write', () => store.revoke(found.grantId, this.#options.now()))) ?? found;
    if (!already)
      this.#options.logger.info('share: grant revoked', auditFields(grantView(revoked, this.#options.now())));
    this.closeConnections(found.grantId);
    return { grantId: found.grantId, revoked: !already };
  }

  /**
   * Registers an open share connection; `close` ends it, with why: the grant was revoked (here or
   * on another host of a shared store), or it expired — a timer armed at its expiry closes the
   * connection then, so a link stops at its time and not only at the next request. Returns its
   * unregistration (which disarms the timer).
   */
  track(
    grant: ShareGrant,
    address: string | undefined,
    close: (reason: ShareCloseReason) => void,
  ): () => void {
    const { logger } = this.#options;
    logger.info('share: connection opened', {
      grantId: grant.grantId,
      sessionId: grant.sessionId,
      address: address ?? 'unknown',
    });
    const revoked = (): void => close('HOST_SHARE_REVOKED');
    let set = this.#open.get(grant.grantId);
    if (set === undefined) this.#open.set(grant.grantId, (set = new Set()));
    set.add(revoked);
    const disarm =
      grant.expiresAt === null
        ? undefined
        : armExpiry(grant.expiresAt, this.#options.now, this.#options.timers, () => {
            logger.info('share: connection closed at expiry', {
              grantId: grant.grantId,
              sessionId: grant.sessionId,
            });
            close('HOST_SHARE_EXPIRED');
          });
    return () => {
      disarm?.();
      set.delete(revoked);
      if (set.size === 0 && this.#open.get(grant.grantId) === set) this.#open.delete(grant.grantId);
    };
  }

  /** Closes every open connection of a grant (it was revoked). */
  closeConnections(grantId: string): void {
    const set = this.#open.get(grantId);
    if (set === undefined) return;
    this.#open.delete(grantId);
    for (const close of set) close();
  }

  /**
   * One call of the grant store: its own failure (a database unreachable, a file unwritable) is
   * logged with its cause and answered as `HOST_SHARE_STORE_FAILED`, never as an internal error.
   */
  async #stored<T>(kind: 'read' | 'write', call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      this.#options.logger.warn(`share: the grant store failed a ${kind}`, { error });
      throw new HostError(
        'HOST_SHARE_STORE_FAILED',
        kind === 'read'
          ? 'the share grants could not be read; try again'
          : 'the share grant could not be saved (it may or may not have been kept); try again',
      );
    }
  }

  #usable(): ShareGrantStore {
    const store = this.#options.store;
    if (store === undefined) throw new HostError('HOST_SHARE_UNAVAILABLE', 'this host keeps no share grants');
    if (!this.#options.tokenRequired)
      throw new HostError(
        'HOST_SHARE_NEEDS_TOKEN',
        'anyone who can reach this host can already read everything; serve with `--require-token` or off loopback',
      );
    return store;
  }
}

function auditFields(view: ShareGrantView): Record<string, unknown> {
  return {
    grantId: view.grantId,
    sessionId: view.sessionId,
    descendants: view.descendants,
    expiresAt: view.expiresAt ?? 'never',
    label: view.label,
    createdBy: view.createdBy,
  };
}
