import { createHash, randomBytes } from 'node:crypto';

/** A new share token: 256 random bits, URL-safe (it travels in a link's path). */
export function newShareToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What a grant keeps instead of its token. A fast hash is enough: the token has 256 bits of entropy. */
export function hashShareToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A grant's public name (listed, revoked by), unrelated to its token. */
export function newGrantId(): string {
  return `sg_${randomBytes(9).toString('base64url')}`;
}
