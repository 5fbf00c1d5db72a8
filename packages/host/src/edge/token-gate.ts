import type { IncomingMessage } from 'node:http';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { presentedToken, tokenMatches } from '../auth.js';

/** What one token check found; `rate-limited` wins over a right token so guessing learns nothing. */
export type TokenVerdict =
  | { readonly kind: 'ok' }
  | { readonly kind: 'missing' }
  | { readonly kind: 'invalid' }
  | { readonly kind: 'rate-limited'; readonly retryAfterMs: number };

export interface TokenGateOptions {
  /** The token; undefined means none is required and every check is `ok`. */
  readonly token: string | undefined;
  /** Failed attempts one address may make per window before it is refused outright. */
  readonly maxFailures: number;
  readonly windowSeconds: number;
  /** The token cookie's name (`tokenCookieName(port)`). */
  readonly cookieName: string;
}

/**
 * Checks presented tokens, counting failures per remote address: past `maxFailures` in a window,
 * the address gets `rate-limited` (HTTP 429) until the window passes, whatever it presents, so a
 * token cannot be guessed at wire speed. A missing token is not an attempt and is not counted.
 */
export class TokenGate {
  readonly #token: string | undefined;
  readonly #failures: RateLimiterMemory;
  readonly #max: number;
  readonly cookieName: string;

  constructor(options: TokenGateOptions) {
    this.#token = options.token;
    this.#max = options.maxFailures;
    this.cookieName = options.cookieName;
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
    const presented = presentedToken(request, this.cookieName);
    if (presented === undefined) return { kind: 'missing' };
    if (tokenMatches(this.#token, presented)) return { kind: 'ok' };
    // consume() rejects once the points are spent; that attempt is still just `invalid`, and
    // the next one is refused above.
    await this.#failures.consume(address).catch(() => undefined);
    return { kind: 'invalid' };
  }
}
