import type { IncomingMessage } from 'node:http';
import { parseCookie } from 'cookie';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { presentedToken, tokenMatches } from '../auth.js';
import type { ShareGrant } from '../share/grant-store.js';
import type { ShareService } from '../share/share-service.js';

/**
 * What one token check found; `rate-limited` wins over a right token so guessing learns nothing.
 * `share`: a share token of a live grant (a read-only connection); `expired` / `revoked`: a share
 * token whose grant is no longer live; `unavailable`: a presented token might be a share token,
 * but the grant store could not be read (`HOST_SHARE_STORE_FAILED`) — neither allowed nor counted
 * as a guess.
 */
export type TokenVerdict =
  | { readonly kind: 'ok' }
  | { readonly kind: 'share'; readonly grant: ShareGrant }
  | { readonly kind: 'missing' }
  | { readonly kind: 'invalid' }
  | { readonly kind: 'expired'; readonly grant: ShareGrant }
  | { readonly kind: 'revoked'; readonly grant: ShareGrant }
  | { readonly kind: 'rate-limited'; readonly retryAfterMs: number }
  | { readonly kind: 'unavailable' };

export interface TokenGateOptions {
  /** The token; undefined means none is required and every check is `ok`. */
  readonly token: string | undefined;
  /** Failed attempts one address may make per window before it is refused outright. */
  readonly maxFailures: number;
  readonly windowSeconds: number;
  /** The token cookie's name (`tokenCookieName(port)`). */
  readonly cookieName: string;
  /** The share cookie's name (`shareCookieName(port)`). */
  readonly shareCookieName: string;
  /** Resolves share tokens; absent: only the host token opens `/rpc`. */
  readonly shares?: ShareService;
}

/**
 * Checks presented tokens, counting failures per remote address: past `maxFailures` in a window,
 * the address gets `rate-limited` (HTTP 429) until the window passes, whatever it presents, so a
 * token cannot be guessed at wire speed. A missing token is not an attempt and is not counted.
 * A token that is neither the host's nor any grant's is one failed attempt, whichever it was
 * meant as; an expired or revoked share token is a real token, not a guess, and is not counted.
 * A request presenting the host token acts as the host token, whatever share cookie it carries.
 */
export class TokenGate {
  readonly #token: string | undefined;
  readonly #failures: RateLimiterMemory;
  readonly #max: number;
  readonly #shares: ShareService | undefined;
  readonly cookieName: string;
  readonly shareCookieName: string;

  constructor(options: TokenGateOptions) {
    this.#token = options.token;
    this.#max = options.maxFailures;
    this.#shares = options.shares;
    this.cookieName = options.cookieName;
    this.shareCookieName = options.shareCookieName;
    this.#failures = new RateLimiterMemory({
      keyPrefix: 'strand-token',
      points: options.maxFailures,
      duration: options.windowSeconds,
    });
  }

  get required(): boolean {
    return this.#token !== undefined;
  }

  async check(request: IncomingMessage): Promise<TokenVerdict> {
    if (this.#token === undefined) return { kind: 'ok' };
    const address = request.socket.remoteAddress ?? 'unknown';
    const seen = await this.#failures.get(address);
    if (seen !== null && seen.consumedPoints >= this.#max)
      return { kind: 'rate-limited', retryAfterMs: seen.msBeforeNext };
    const candidates = [presentedToken(request, this.cookieName), this.#shareCookie(request)].filter(
      (token): token is string => token !== undefined,
    );
    if (candidates.length === 0) return { kind: 'missing' };
    const token = this.#token;
    if (candidates.some((candidate) => tokenMatches(token, candidate))) return { kind: 'ok' };
    const shared = await this.#shareVerdict(candidates);
    if (shared !== undefined) return shared;
    // consume() rejects once the points are spent; that attempt is still just `invalid`, and
    // the next one is refused above.
    await this.#failures.consume(address).catch(() => undefined);
    return { kind: 'invalid' };
  }

  /** The first candidate that is some grant's token decides; undefined: none is. */
  async #shareVerdict(candidates: readonly string[]): Promise<TokenVerdict | undefined> {
    const shares = this.#shares;
    if (shares === undefined) return undefined;
    for (const candidate of candidates) {
      let found;
      try {
        found = await shares.lookup(candidate);
      } catch {
        // The service logged the cause; the caller can only be told to try again.
        return { kind: 'unavailable' };
      }
      switch (found.kind) {
        case 'unknown':
          continue;
        case 'active':
          return { kind: 'share', grant: found.grant };
        case 'expired':
        case 'revoked':
          return { kind: found.kind, grant: found.grant };
        default: {
          const exhaustive: never = found;
          throw new Error(`unhandled share lookup ${String(exhaustive)}`);
        }
      }
    }
    return undefined;
  }

  #shareCookie(request: IncomingMessage): string | undefined {
    const cookie = request.headers.cookie;
    if (typeof cookie !== 'string') return undefined;
    const value = parseCookie(cookie)[this.shareCookieName];
    return value === undefined || value === '' ? undefined : value;
  }
}
