import { DEFAULT_SHARE_EXPIRY_MS } from '@strand/protocol';

const HOUR_MS = 3600 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** The expiries the Share dialog offers, as `share.create`'s `expiresInMs` (`null`: never). */
export const SHARE_EXPIRIES = [
  { value: '1h', label: '1 hour', ms: HOUR_MS },
  { value: '1d', label: '1 day', ms: DAY_MS },
  { value: '7d', label: '7 days', ms: 7 * DAY_MS },
  { value: '30d', label: '30 days', ms: 30 * DAY_MS },
  { value: 'never', label: 'Never', ms: null },
] as const;

export type ShareExpiryChoice = (typeof SHARE_EXPIRIES)[number]['value'];

/** The host's own default (a week), so the dialog starts where `strand share` does. */
export const DEFAULT_SHARE_EXPIRY: ShareExpiryChoice =
  SHARE_EXPIRIES.find((choice) => choice.ms === DEFAULT_SHARE_EXPIRY_MS)?.value ?? '7d';

/** `expiresInMs` of a choice; an unknown value (never offered) reads as the default. */
export function expiresInMs(choice: string): number | null {
  const found = SHARE_EXPIRIES.find((entry) => entry.value === choice);
  return (found ?? SHARE_EXPIRIES.find((entry) => entry.value === DEFAULT_SHARE_EXPIRY)!).ms;
}
