import { describe, expect, it } from 'vitest';
import { sharedBadgeText } from './SharedBadge.js';

describe('sharedBadgeText', () => {
  it('says read-only, and until when only when the link expires', () => {
    const grant = { sessionId: 's', descendants: false };
    expect(sharedBadgeText({ ...grant, expiresAt: null })).toBe('Shared · read-only');
    expect(
      sharedBadgeText({ ...grant, expiresAt: '2026-12-01T10:00:00.000Z' }, (ms) =>
        new Date(ms).toISOString(),
      ),
    ).toBe('Shared · read-only · until 2026-12-01T10:00:00.000Z');
  });
});
