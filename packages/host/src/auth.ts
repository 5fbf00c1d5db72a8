import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** Loopback means only this machine can connect: the one binding that needs no token. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** The token a client presented: `Authorization: Bearer …` or `?token=…` (browsers cannot set headers on WebSockets). */
export function presentedToken(request: IncomingMessage): string | undefined {
  const header = request.headers.authorization;
  if (typeof header === 'string' && header.startsWith('Bearer ')) return header.slice('Bearer '.length);
  const url = new URL(request.url ?? '/', 'http://host');
  return url.searchParams.get('token') ?? undefined;
}

export function tokenMatches(expected: string, presented: string | undefined): boolean {
  if (presented === undefined) return false;
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(presented, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
