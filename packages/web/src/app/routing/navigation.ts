import { useMemo, useSyncExternalStore, type MouseEvent } from 'react';
import { parseRoute, routeHref, type Route } from './routes.js';

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
  const href = routeHref(route);
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
