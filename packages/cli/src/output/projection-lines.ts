import { modelNames, readUsageValue, usageLine } from '@strand/client';
import { isRecord } from '@strand/session';
import { duration, localDateTime } from './local-time.js';

/**
 * A projection value as one line a person reads. Values come off the wire, so each known key's
 * shape is checked before it is used; anything else (a unit this CLI does not know, a value of
 * an unexpected shape) gets the generic rendering — never an error. `?` is unknown (no value),
 * `—` the "computed to nothing" sentinel (`null`). `--json` keeps the exact values.
 */
export function projectionText(key: string, value: unknown): string {
  if (value === undefined) return '?';
  if (value === null) return '—';
  return KNOWN[key]?.(value) ?? generic(value);
}

const KNOWN: Readonly<Record<string, (value: unknown) => string | undefined>> = {
  listMetadata: (v) =>
    isRecord(v)
      ? [
          v.blank === true ? 'blank' : undefined,
          typeof v.lastPromptAt === 'number' ? `last prompt ${localDateTime(v.lastPromptAt)}` : undefined,
        ]
          .filter((part) => part !== undefined)
          .join(', ') || undefined
      : undefined,
  modelSelection: (v) =>
    isRecord(v) && typeof v.provider === 'string' && typeof v.model === 'string'
      ? `${v.provider}/${v.model}${typeof v.reasoningEffort === 'string' ? ` (reasoning ${v.reasoningEffort})` : ''}`
      : undefined,
  usage: (v) => {
    const usage = readUsageValue(v);
    if (usage === undefined) return undefined;
    const models = modelNames(usage);
    const inherited = usage.inherited.input + usage.inherited.output;
    return [
      `${usageLine(usage.own, 'en-US')} tokens`,
      models.length === 0 ? undefined : `by ${models.join(', ')}`,
      inherited === 0 ? undefined : `(before the fork: ${usageLine(usage.inherited, 'en-US')})`,
    ]
      .filter((part) => part !== undefined)
      .join(' ');
  },
  subagentTiming: (v) => {
    if (!isRecord(v) || typeof v.settledMs !== 'number' || typeof v.settledTurns !== 'number')
      return undefined;
    const settled = `${v.settledTurns} settled ${v.settledTurns === 1 ? 'turn' : 'turns'} (${duration(v.settledMs)})`;
    const active = v.active;
    return isRecord(active) && typeof active.since === 'number'
      ? `${settled}; running since ${localDateTime(active.since, true)}`
      : settled;
  },
  subagent: (v) =>
    isRecord(v) && typeof v.mode === 'string'
      ? `${v.mode}${typeof v.label === 'string' ? ` "${v.label}"` : ''}${typeof v.seq === 'number' ? ` (descriptor at seq ${v.seq})` : ''}`
      : undefined,
};

/** `a: 1, b: x`; numbers under a time-like key as local dates, nested values as JSON. */
function generic(value: unknown): string {
  if (typeof value === 'string') return value;
  if (!isRecord(value)) return JSON.stringify(value);
  const parts = Object.entries(value).map(([k, v]) => {
    if (typeof v === 'number' && /(At|Time|^time|^since|^through)$/.test(k))
      return `${k}: ${localDateTime(v)}`;
    if (v === null) return `${k}: —`;
    return `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`;
  });
  return parts.length === 0 ? '{}' : parts.join(', ');
}
