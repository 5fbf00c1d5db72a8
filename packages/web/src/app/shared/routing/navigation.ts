import { useMemo, useSyncExternalStore, type MouseEvent } from 'react';
import { parseRoute, routeHref, type Route } from './routes.js';
import { readSearchQuery, writeSearchQuery } from './search-query.js';

/**
 * The History API through one small module instead of a router library: the UI has two routes
 * and one query parameter, so a dependency would add more surface than it removes. The address
 * bar is the one store of "what is open": back/forward (`popstate`) and our own `navigate`
 * (which announces itself with the same event name) both re-render `useRoute` readers.
 */
const CHANGED = 'popstate';

function subscribe(listener: () => void): () => void {
  window.addEventListener(CHANGED, listener);
  return () => window.removeEventListener(CHANGED, listener);
}

function currentHref(): string {
  return window.location.pathname + window.location.search;
}

/** The route the address bar shows; re-renders on back/forward and on `navigate`. */
export function useRoute(): Route {
  const href = useSyncExternalStore(subscribe, currentHref);
  return useMemo(() => {
    const url = new URL(href, 'http://page');
    return parseRoute(url.pathname, url.search);
  }, [href]);
}

/**
 * Goes to `route`: a new history entry (or, with `replace`, this one rewritten). Going where the
 * address bar already is adds no entry, so a double click does not make Back need two presses.
 */
export function navigate(route: Route, options: { readonly replace?: boolean } = {}): void {
  const href = withSearchQuery(route);
  if (href === currentHref()) return;
  if (options.replace === true) window.history.replaceState(null, '', href);
  else window.history.pushState(null, '', href);
  window.dispatchEvent(new PopStateEvent(CHANGED));
}

/**
 * For an `<a href>` of ours: a plain left click navigates in the page; a modified or middle click
 * keeps the browser's meaning (new tab, copy link), which is why these are real links.
 */
export function followLink(event: MouseEvent<HTMLAnchorElement>, route: Route): void {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  navigate(route);
}

/**
 * A session's href keeping the search box's `?q=`: opening hit after hit keeps the search beside
 * them, and back, forward or a reload return to the session and the search together. Other
 * routes start without it (the start page, the usage page).
 */
function withSearchQuery(route: Route): string {
  const href = routeHref(route);
  const query = readSearchQuery(window.location.search);
  if (route.kind !== 'session' || query === '') return href;
  const at = href.indexOf('?');
  const path = at === -1 ? href : href.slice(0, at);
  return path + writeSearchQuery(at === -1 ? '' : href.slice(at), query);
}

/** The search box's query as the address holds it (`?q=`); re-renders on every address change. */
export function useSearchQuery(): string {
  return useSyncExternalStore(subscribe, () => readSearchQuery(window.location.search));
}

/** Writes the search box's query into this history entry: typing is not a place Back returns to. */
export function setSearchQuery(query: string): void {
  const search = writeSearchQuery(window.location.search, query);
  if (search === window.location.search) return;
  window.history.replaceState(
    window.history.state,
    '',
    window.location.pathname + search + window.location.hash,
  );
  window.dispatchEvent(new PopStateEvent(CHANGED));
}
