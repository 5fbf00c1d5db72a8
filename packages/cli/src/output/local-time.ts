/**
 * Epoch milliseconds as a person's local date and time (`2026-11-01 01:00`, the machine's time
 * zone; `TZ` sets it). The `--json` output keeps the milliseconds.
 */
export function localDateTime(ms: number, seconds = false): string {
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) return String(ms);
  const two = (n: number): string => String(n).padStart(2, '0');
  const date = `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
  const time = `${two(d.getHours())}:${two(d.getMinutes())}${seconds ? `:${two(d.getSeconds())}` : ''}`;
  return `${date} ${time}`;
}

/** A duration in ms as `1h 2m`, `3m 4s`, `5.2s`. */
export function duration(ms: number): string {
  if (ms < 10_000) return `${(ms / 1000).toFixed(1).replace(/\.0$/, '')}s`;
  const s = Math.round(ms / 1000);
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
  return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
}
