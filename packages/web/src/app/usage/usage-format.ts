/*
 * How the usage page writes the host's figures. Display only: every number here was computed by
 * the host (`usage.summary`), costs included — the browser never prices a token.
 */

/** A token count with the locale's digit groups: `1,234,567`. */
export function formatTokens(tokens: number, locale?: string): string {
  return tokens.toLocaleString(locale);
}

/** A token count short enough for an axis tick: `950`, `12K`, `1.2M`. */
export function formatTokensShort(tokens: number, locale?: string): string {
  return new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 }).format(tokens);
}

/** The smallest cost written in cents; anything above 0 but below it says "<$0.01", never "$0.00". */
const CENT = 0.005;

/**
 * USD as a person reads it: `$1,234.56`; `—` for `null` (nothing in it is priced — an unpriced
 * model is unknown, not free); `<$0.01` for a positive cost that would round to nothing.
 */
export function formatCost(cost: number | null, locale?: string): string {
  if (cost === null) return '—';
  if (cost > 0 && cost < CENT) return '<$0.01';
  return new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' }).format(cost);
}

/** USD short enough for an axis tick, with the digits small amounts need: `$0.025`, `$1.25K`. */
export function formatCostShort(cost: number, locale?: string): string {
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: 'USD',
    notation: 'compact',
    maximumSignificantDigits: 3,
  }).format(cost);
}

/**
 * A day key (`YYYY-MM-DD`, already a day of the zone the host grouped in) as a short label,
 * `Nov 2`. Formatted as that calendar date at UTC, so the browser's own zone cannot shift it.
 */
export function dayLabel(day: string, locale?: string): string {
  const [year, month, date] = day.split('-').map(Number);
  if (year === undefined || month === undefined || date === undefined) return day;
  const at = Date.UTC(year, month - 1, date);
  if (Number.isNaN(at)) return day;
  return new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(at);
}
