import { networkInterfaces } from 'node:os';
import { isLoopbackHost } from '../auth.js';

/**
 * Which web pages may drive this host. A browser lets any page open a WebSocket to any address
 * and only tells the server who asked (`Origin`), so the host must refuse foreign origins itself;
 * and a DNS-rebinding page reaches a loopback port under its own name, which only the `Host`
 * header shows.
 */
export interface AccessPolicy {
  /** Normalised origins (`new URL(…).origin`) whose pages may open `/rpc`. */
  readonly origins: ReadonlySet<string>;
  /** Bound to loopback: the `Host` header must then name a loopback address with `port`. */
  readonly loopback: boolean;
  readonly port: number;
}

export type AccessVerdict =
  | { readonly kind: 'allowed' }
  | { readonly kind: 'refused'; readonly reason: string };

const ALLOWED: AccessVerdict = { kind: 'allowed' };
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];
const WILDCARDS = new Set(['0.0.0.0', '::', '[::]']);

/** The normalised origin of `text`, or undefined when it is not a plain `http(s)://host[:port]`. */
export function parseOrigin(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  // Only an origin: a path, query or credentials would mean the flag says something it does not.
  const bare = text.endsWith('/') ? text.slice(0, -1) : text;
  if (bare.toLowerCase() !== url.origin) return undefined;
  return url.origin;
}

/**
 * The host's own origins: the bound address (every interface address for a wildcard bind) and
 * the loopback names, each with the host's port, plus the explicitly allowed ones.
 */
export function accessPolicy(bind: string, port: number, allowOrigins: readonly string[]): AccessPolicy {
  const names = new Set(LOOPBACK_NAMES);
  if (WILDCARDS.has(bind)) {
    names.add(bind.includes(':') ? '[::]' : '0.0.0.0');
    for (const addresses of Object.values(networkInterfaces()))
      for (const address of addresses ?? []) {
        // A zone-scoped IPv6 address (fe80::…%eth0) has no origin form a browser would send.
        if (address.family === 'IPv6' && address.scopeid !== 0) continue;
        names.add(address.family === 'IPv6' ? `[${address.address}]` : address.address);
      }
  } else names.add(bind.includes(':') && !bind.startsWith('[') ? `[${bind}]` : bind);
  const origins = new Set<string>();
  for (const name of names) origins.add(new URL(`http://${name}:${port}`).origin);
  for (const origin of allowOrigins) {
    const parsed = parseOrigin(origin);
    if (parsed !== undefined) origins.add(parsed);
  }
  return { origins, loopback: isLoopbackHost(bind), port };
}

/** An absent `Origin` is a non-browser client (the CLI, `ws`); a browser always sends one. */
export function checkOrigin(policy: AccessPolicy, origin: string | undefined): AccessVerdict {
  if (origin === undefined) return ALLOWED;
  const parsed = parseOrigin(origin);
  if (parsed !== undefined && policy.origins.has(parsed)) return ALLOWED;
  return { kind: 'refused', reason: `origin ${JSON.stringify(origin)} is not allowed` };
}

/** On a loopback bind only a loopback name with our port is a request for us, not a rebinding. */
export function checkHostHeader(policy: AccessPolicy, host: string | undefined): AccessVerdict {
  if (!policy.loopback) return ALLOWED;
  if (host === undefined) return { kind: 'refused', reason: 'a Host header is required' };
  // Nothing but host[:port]: `127.0.0.1:4400@evil.example` must not parse as something else.
  if (!/^[^/?#@\s]+$/.test(host))
    return { kind: 'refused', reason: `Host ${JSON.stringify(host)} is malformed` };
  let url: URL;
  try {
    url = new URL(`http://${host}`);
  } catch {
    return { kind: 'refused', reason: `Host ${JSON.stringify(host)} is malformed` };
  }
  const port = url.port === '' ? 80 : Number(url.port);
  if (isLoopbackHost(url.hostname) && port === policy.port) return ALLOWED;
  return { kind: 'refused', reason: `Host ${JSON.stringify(host)} is not this loopback host` };
}
