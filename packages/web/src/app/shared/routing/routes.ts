import { readListFilter, writeListFilter, type ListFilter } from './list-filter-params.js';
import { readUsageFilter, writeUsageFilter, type UsageFilter } from './usage-filter-params.js';

/**
 * The UI's addresses, as a pure codec (no `window`): `/` is the start page (`?cwd=`/`?harness=`
 * its list's filters), `/sessions/<id>` one session, `/sessions/<id>?seq=N` one of its events,
 * `/usage` the usage page (its filters in the query, see usage/usage-filter-params.ts). The id is one path segment, written with
 * `encodeURIComponent`, so any id (slashes, `#`, `%`, `..`) round-trips and never names a file.
 * The host serves the page for every `/sessions/*` path (`packages/host/src/static-files.ts`).
 * The two ids no segment can carry — `.` and `..`, which a URL parser removes as dot segments
 * even when written `%2E` — are addressed as `/sessions?id=<id>` instead.
 */
export type Route =
  /** `filter` only when the address names one (a link to a filtered list); absent is "as it is". */
  | { readonly kind: 'home'; readonly filter?: ListFilter }
  | { readonly kind: 'usage'; readonly filter: UsageFilter }
  | { readonly kind: 'session'; readonly id: string; readonly seq?: number }
  /** A path this UI does not know (or an id that does not decode): said so, never guessed at. */
  | { readonly kind: 'not-found'; readonly path: string };

const PREFIX = '/sessions/';
const USAGE = '/usage';
const DOT_SEGMENTS = new Set(['.', '..']);

/** A `seq` parameter: a plain non-negative decimal integer, else none (the session opens at its end). */
function parseSeq(raw: string | null): number | undefined {
  if (raw === null || !/^(0|[1-9][0-9]{0,15})$/.test(raw)) return undefined;
  const seq = Number(raw);
  return Number.isSafeInteger(seq) ? seq : undefined;
}

/** The route of a location's `pathname` and `search` (as the browser gives them: still encoded). */
export function parseRoute(pathname: string, search: string): Route {
  const params = new URLSearchParams(search);
  const seq = parseSeq(params.get('seq'));
  if (pathname === '/sessions' || pathname === PREFIX) {
    const id = params.get('id');
    if (id === null || id === '') return { kind: 'home' };
    return seq === undefined ? { kind: 'session', id } : { kind: 'session', id, seq };
  }
  if (pathname === '/' || pathname === '') {
    const filter = readListFilter(search);
    return filter.cwd === null && filter.harness === null ? { kind: 'home' } : { kind: 'home', filter };
  }
  if (pathname === USAGE) return { kind: 'usage', filter: readUsageFilter(search) };
  if (!pathname.startsWith(PREFIX)) return { kind: 'not-found', path: pathname };
  const segment = pathname.slice(PREFIX.length);
  if (segment.includes('/')) return { kind: 'not-found', path: pathname };
  let id: string;
  try {
    id = decodeURIComponent(segment);
  } catch {
    return { kind: 'not-found', path: pathname };
  }
  return seq === undefined ? { kind: 'session', id } : { kind: 'session', id, seq };
}

/** The path (and query) of a route: what `parseRoute` reads back to the same route. */
export function routeHref(route: Route): string {
  switch (route.kind) {
    case 'home':
      return `/${route.filter === undefined ? '' : writeListFilter('', route.filter)}`;
    case 'usage':
      return `${USAGE}${writeUsageFilter('', route.filter)}`;
    case 'session': {
      const id = encodeURIComponent(route.id);
      if (DOT_SEGMENTS.has(route.id))
        return `/sessions?id=${id}${route.seq === undefined ? '' : `&seq=${route.seq}`}`;
      return `${PREFIX}${id}${route.seq === undefined ? '' : `?seq=${route.seq}`}`;
    }
    case 'not-found':
      return route.path;
    default: {
      const exhaustive: never = route;
      throw new Error(`unhandled route ${JSON.stringify(exhaustive)}`);
    }
  }
}

/** The href of one session, or of one of its events. */
export function sessionHref(id: string, seq?: number): string {
  return routeHref(seq === undefined ? { kind: 'session', id } : { kind: 'session', id, seq });
}
