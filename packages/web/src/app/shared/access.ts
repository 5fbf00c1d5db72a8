/**
 * Whether this browser may connect, asked of the host's `GET /auth` before opening `/rpc`: a
 * browser never learns why a WebSocket upgrade failed (401 and 403 look alike to a page), so
 * without asking, a page without its token would show "connecting" forever.
 */
export type AccessProblem =
  | { readonly kind: 'missing' }
  | { readonly kind: 'invalid' }
  | { readonly kind: 'rate-limited'; readonly retryAfterMs: number };

interface AuthAnswer {
  readonly required?: unknown;
  readonly status?: unknown;
  readonly retryAfterMs?: unknown;
}

/** The problem `/auth` reports, or undefined when the page may connect (or the host cannot say). */
export async function checkAccess(fetchAuth: () => Promise<Response>): Promise<AccessProblem | undefined> {
  let answer: AuthAnswer;
  try {
    const response = await fetchAuth();
    // A host without `/auth` (an older one, a dev server) cannot say: connect and see.
    if (!response.ok) return undefined;
    answer = (await response.json()) as AuthAnswer;
  } catch {
    // Unreachable or not JSON: the connection's own retries and badge say the rest.
    return undefined;
  }
  switch (answer.status) {
    case 'missing':
    case 'invalid':
      return { kind: answer.status };
    case 'rate-limited':
      return {
        kind: 'rate-limited',
        retryAfterMs: typeof answer.retryAfterMs === 'number' ? answer.retryAfterMs : 60_000,
      };
    default:
      return undefined;
  }
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
    default: {
      const exhaustive: never = problem;
      throw new Error(`unknown access problem ${String(exhaustive)}`);
    }
  }
}
