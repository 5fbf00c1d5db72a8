import type { ProjectionUnit } from '../../types.js';
import { isCount, isRecord } from '../read.js';

export interface UsageTotals {
  readonly input: number;
  readonly output: number;
}
/** Totals, or `null` once a usage record could not be read (a sum that skipped it would be wrong). */
export type UsageState = UsageTotals | null;
export type UsageView = UsageTotals | null;

declare module '../../types.js' {
  interface ProjectionStateMap {
    usage: UsageState;
  }
  interface ProjectionViewMap {
    usage: UsageView;
  }
}

export const USAGE_READS: readonly string[] = ['assistant/message'];

const ZERO: UsageTotals = Object.freeze({ input: 0, output: 0 });

/** Token totals summed from `assistant/message` usage records. */
export const usageUnit: ProjectionUnit<UsageState, UsageView, 'usage'> = {
  key: 'usage',
  stateVersion: 1,
  dataReads: USAGE_READS,
  init: () => ZERO,
  apply(state, event) {
    if (state === null || event.type !== 'assistant/message') return state;
    const data = event.data;
    if (!isRecord(data) || data.usage === undefined) return state;
    const usage = data.usage;
    if (!isRecord(usage) || !isCount(usage.input) || !isCount(usage.output)) return null;
    if (usage.input === 0 && usage.output === 0) return state;
    return { input: state.input + usage.input, output: state.output + usage.output };
  },
  view: (state) => state,
};
