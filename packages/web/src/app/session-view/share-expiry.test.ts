import { describe, expect, it } from 'vitest';
import { DEFAULT_SHARE_EXPIRY_MS, MAX_SHARE_EXPIRY_MS } from '@strand/protocol';
import { DEFAULT_SHARE_EXPIRY, SHARE_EXPIRIES, expiresInMs } from './share-expiry.js';

describe('share expiries', () => {
  it("defaults to the host's default, and every offered expiry is one share.create accepts", () => {
    expect(expiresInMs(DEFAULT_SHARE_EXPIRY)).toBe(DEFAULT_SHARE_EXPIRY_MS);
    for (const choice of SHARE_EXPIRIES) {
      const ms = expiresInMs(choice.value);
      expect(ms === null || (ms >= 1000 && ms <= MAX_SHARE_EXPIRY_MS)).toBe(true);
    }
    expect(expiresInMs('never')).toBeNull();
    expect(expiresInMs('1h')).toBe(3_600_000);
  });

  it('reads a value it never offered as the default', () => {
    expect(expiresInMs('2y')).toBe(DEFAULT_SHARE_EXPIRY_MS);
  });
});
