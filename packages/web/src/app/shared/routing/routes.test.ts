import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRoute, routeHref, sessionHref, type Route } from './routes.js';

// eslint-disable-next-line no-control-regex -- session ids may not hold control characters
const CONTROL = /[\u0000-\u001f\u007f]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Session ids as the session package allows them, biased towards what URLs make special. */
const sessionId = fc
  .array(
    fc.oneof(
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 4 }),
      fc.constantFrom('/', '#', '%', '?', '&', '=', '+', '..', ' ', '%2F', 'é', '✓', '😀'),
    ),
    { minLength: 1, maxLength: 12 },
  )
  .map((parts) => parts.join('').slice(0, 128))
  .filter((id) => id.length > 0 && !CONTROL.test(id) && !LONE_SURROGATE.test(id));

const seq = fc.option(fc.nat({ max: Number.MAX_SAFE_INTEGER }), { nil: undefined });

function parseHref(href: string): Route {
  const url = new URL(href, 'http://page');
  return parseRoute(url.pathname, url.search);
}

describe('routes', () => {
  it('round-trips every session id and seq through the href a browser would hold', () => {
    fc.assert(
      fc.property(sessionId, seq, (id, at) => {
        const route: Route = at === undefined ? { kind: 'session', id } : { kind: 'session', id, seq: at };
        const href = routeHref(route);
        const { pathname } = new URL(href, 'http://page');
        // One path segment whatever the id spells (the host serves the page, never a file); the
        // two dot segments a URL parser would remove go in the query.
        if (id === '.' || id === '..') expect(pathname).toBe('/sessions');
        else expect(pathname.split('/')).toHaveLength(3);
        expect(parseHref(href)).toEqual(route);
      }),
    );
  });

  it('addresses the ids "." and ".." in the query, which a path would lose', () => {
    expect(sessionHref('..', 4)).toBe('/sessions?id=..&seq=4');
    expect(sessionHref('.')).toBe('/sessions?id=.');
    expect(parseHref('/sessions?id=..&seq=4')).toEqual({ kind: 'session', id: '..', seq: 4 });
    // What the browser makes of the path form: the start page, not session "..".
    expect(parseHref('/sessions/..')).toEqual({ kind: 'home' });
    expect(parseHref('/sessions/%2E%2E')).toEqual({ kind: 'home' });
  });

  it('reads the start page, unknown paths and undecodable ids as what they are', () => {
    expect(parseRoute('/', '')).toEqual({ kind: 'home' });
    expect(parseRoute('/sessions', '')).toEqual({ kind: 'home' });
    expect(parseRoute('/sessions/', '?seq=4')).toEqual({ kind: 'home' });
    expect(parseRoute('/elsewhere', '')).toEqual({ kind: 'not-found', path: '/elsewhere' });
    expect(parseRoute('/sessions/a/b', '')).toEqual({ kind: 'not-found', path: '/sessions/a/b' });
    expect(parseRoute('/sessions/%E0%A4%A', '')).toEqual({ kind: 'not-found', path: '/sessions/%E0%A4%A' });
  });

  it('ignores a seq that is not a plain non-negative integer (the session opens at its end)', () => {
    for (const raw of ['', '-1', '1.5', '01', '1e3', ' 3', 'abc', '99999999999999999'])
      expect(parseRoute('/sessions/x', `?seq=${encodeURIComponent(raw)}`), raw).toEqual({
        kind: 'session',
        id: 'x',
      });
    expect(parseRoute('/sessions/x', '?seq=0&token=t')).toEqual({ kind: 'session', id: 'x', seq: 0 });
    expect(sessionHref('a b/c', 7)).toBe('/sessions/a%20b%2Fc?seq=7');
    expect(sessionHref('a')).toBe('/sessions/a');
  });

  it('reads and writes the usage page with its filters, and the start page with a list filter', () => {
    const usage: Route = {
      kind: 'usage',
      filter: { cwd: '/p q', harness: 'codex', since: '2026-11-02', until: null },
    };
    expect(routeHref(usage)).toBe('/usage?cwd=%2Fp+q&harness=codex&since=2026-11-02');
    expect(parseHref(routeHref(usage))).toEqual(usage);
    expect(parseRoute('/usage', '')).toEqual({
      kind: 'usage',
      filter: { cwd: null, harness: null, since: null, until: null },
    });
    const filtered: Route = { kind: 'home', filter: { cwd: '/a', harness: null } };
    expect(routeHref(filtered)).toBe('/?cwd=%2Fa');
    expect(parseHref(routeHref(filtered))).toEqual(filtered);
    // A link to the whole list names no filter: the start page as it is.
    expect(routeHref({ kind: 'home', filter: { cwd: null, harness: null } })).toBe('/');
    expect(routeHref({ kind: 'home' })).toBe('/');
  });
});
