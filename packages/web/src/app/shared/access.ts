/**
 * Whether this browser may connect, asked of the host's `GET /auth` before opening `/rpc`: a
 * browser never learns why a WebSocket upgrade failed (401 and 403 look alike to a page), so
 * without asking, a page without its token would show "connecting" forever.
 */
export type AccessProblem =
  | { readonly kind: 'missing' }
  | { readonly kind: 'invalid' }
  | { readonly kind: 'rate-limited'; readonly retryAfterMs: number }
  /** A share link past its expiry (`HOST_SHARE_EXPIRED`). */
  | { readonly kind: 'expired' }
  /** A share link its owner revoked (`HOST_SHARE_REVOKED`). */
  | { readonly kind: 'revoked' }
  /** The host could not read its share grants (`HOST_SHARE_STORE_FAILED`): a passing failure. */
  | { readonly kind: 'unavailable' };

/** What a share link (`/share/<token>`, its token in the share cookie) lets this page read. */
export interface SharedGrant {
  readonly sessionId: string;
  /** The shared session's subagents are readable too. */
  readonly descendants: boolean;
  /** ISO time; null: never expires. */
  readonly expiresAt: string | null;
}

/** What `/auth` says of this browser: it may connect with full access, only to a shared session, or not. */
export type Access =
  | { readonly kind: 'full' }
  | { readonly kind: 'share'; readonly share: SharedGrant }
  | { readonly kind: 'problem'; readonly problem: AccessProblem };

interface AuthAnswer {
  readonly required?: unknown;
  readonly status?: unknown;
  readonly retryAfterMs?: unknown;
  readonly share?: unknown;
}

const FULL: Access = { kind: 'full' };

/** The grant of a `share` answer, or undefined when it is not shaped as one. */
function readGrant(value: unknown): SharedGrant | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { sessionId, descendants, expiresAt } = value as Record<string, unknown>;
  if (typeof sessionId !== 'string' || typeof descendants !== 'boolean') return undefined;
  if (expiresAt !== null && typeof expiresAt !== 'string') return undefined;
  return { sessionId, descendants, expiresAt };
}

/** What `/auth` reports; `full` when the host cannot say (the connection then shows the rest). */
export async function readAccess(fetchAuth: () => Promise<Response>): Promise<Access> {
  let answer: AuthAnswer;
  try {
    const response = await fetchAuth();
    // A host without `/auth` (an older one, a dev server) cannot say: connect and see.
    if (!response.ok) return FULL;
    answer = (await response.json()) as AuthAnswer;
  } catch {
    // Unreachable or not JSON: the connection's own retries and badge say the rest.
    return FULL;
  }
  switch (answer.status) {
    case 'missing':
    case 'invalid':
    case 'expired':
    case 'revoked':
    case 'unavailable':
      return { kind: 'problem', problem: { kind: answer.status } };
    case 'rate-limited':
      return {
        kind: 'problem',
        problem: {
          kind: 'rate-limited',
          retryAfterMs: typeof answer.retryAfterMs === 'number' ? answer.retryAfterMs : 60_000,
        },
      };
    case 'share': {
      const share = readGrant(answer.share);
      // A share answer without its grant cannot open anything: as a refused token.
      return share === undefined
        ? { kind: 'problem', problem: { kind: 'invalid' } }
        : { kind: 'share', share };
    }
    default:
      return FULL;
  }
}

/** The problem `/auth` reports, or undefined when the page may connect (or the host cannot say). */
export async function checkAccess(fetchAuth: () => Promise<Response>): Promise<AccessProblem | undefined> {
  const access = await readAccess(fetchAuth);
  return access.kind === 'problem' ? access.problem : undefined;
}

/**
 * Removes `token` from the address bar (and so from history and bookmarks) once the page has
 * read it. The host already redirects a `?token=` load after moving the token into its cookie;
 * this covers pages served by something else, such as the Vite dev server.
 */
export function dropTokenFromAddressBar(
  location: Pick<Location, 'href'>,
  history: Pick<History, 'replaceState' | 'state'>,
): void {
  const url = new URL(location.href);
  if (!url.searchParams.has('token')) return;
  url.searchParams.delete('token');
  history.replaceState(history.state, '', url.pathname + url.search + url.hash);
}

/** Whether a problem is a dead share link (its page says so, with no token advice). */
export function isShareProblem(problem: AccessProblem): boolean {
  return problem.kind === 'expired' || problem.kind === 'revoked';
}

export function describeProblem(problem: AccessProblem): { title: string; detail: string } {
  switch (problem.kind) {
    case 'missing':
      return {
        title: 'This host needs a token',
        detail:
          'Open the link `strand serve` printed when it started (it ends in ?token=…). ' +
          'The browser keeps the token in a cookie afterwards.',
      };
    case 'invalid':
      return {
        title: 'The token was refused',
        detail:
          'The token this browser presented is not the host’s (mistyped, or the host was restarted with ' +
          'another one). Open the link `strand serve` printed again.',
      };
    case 'rate-limited':
      return {
        title: 'Too many wrong tokens',
        detail: `This address made too many failed attempts; try again in ${Math.ceil(problem.retryAfterMs / 1000)} s.`,
      };
    case 'expired':
      return {
        title: 'This link has expired',
        detail:
          'The read-only link to this session was made to last a while, and that time is up. ' +
          'Ask the person who shared it for a new link.',
      };
    case 'revoked':
      return {
        title: 'This link was revoked',
        detail:
          'The person who shared this session withdrew the link, so it no longer opens anything. ' +
          'Ask them for a new link if you still need to follow the session.',
      };
    case 'unavailable':
      return {
        title: 'The host cannot check this link right now',
        detail:
          'The host could not read its share links (their database or file failed), so it cannot tell ' +
          'what this browser may open. Nothing was changed; retry in a moment.',
      };
    default: {
      const exhaustive: never = problem;
      throw new Error(`unknown access problem ${String(exhaustive)}`);
    }
  }
}
