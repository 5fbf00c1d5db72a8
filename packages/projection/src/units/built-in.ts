import type { AnyProjectionUnit } from '../types.js';
import { agentPresetUnit } from './agent-preset/agent-preset.js';
import { continuedFromUnit } from './continued-from/continued-from.js';
import { listMetadataUnit } from './list-metadata/list-metadata.js';
import { modelSelectionUnit } from './model-selection/model-selection.js';
import { titleUnit } from './title/title.js';
import { usageUnit } from './usage/usage.js';

/** The generic units every Strand host registers; domains (subagent…) register their own beside them. */
export const BUILT_IN_UNITS: readonly AnyProjectionUnit[] = Object.freeze([
  titleUnit,
  listMetadataUnit,
  modelSelectionUnit,
  agentPresetUnit,
  usageUnit,
  continuedFromUnit,
]);
