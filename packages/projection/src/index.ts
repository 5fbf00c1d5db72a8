export type {
  ProjectionStateMap,
  ProjectionViewMap,
  ProjectionKey,
  StateOf,
  ViewOf,
  ProjectionUnit,
  ProjectionUnitFor,
  AnyProjectionUnit,
  ProjectionValues,
  ProjectionSnapshot,
  CheckpointRow,
  CheckpointRows,
  FoldOrigin,
} from './types.js';
export { UNSEEDED } from './types.js';
export {
  PROJECTION_ERROR_CODES,
  ProjectionError,
  isProjectionError,
  type ProjectionErrorCode,
  type ProjectionErrorDetails,
} from './errors.js';
export { ProjectionRegistry, type ProjectionRegistryOptions, type LiveSessionSource } from './registry.js';
export type { ProjectionChangeListener, TrackingEvent, TrackingListener } from './feeds.js';
export type { ColdProjection, RestoreInput, RestoreResult } from './cold.js';
export { BUILT_IN_UNITS } from './units/built-in.js';
export { titleUnit, TITLE_READS, type TitleState, type TitleView } from './units/title/title.js';
export {
  listMetadataUnit,
  lastActivityAt,
  LIST_METADATA_READS,
  type ListMetadataState,
  type ListMetadataView,
} from './units/list-metadata/list-metadata.js';
export {
  modelSelectionUnit,
  MODEL_SELECTION_READS,
  type ModelRoute,
  type ModelSelectionState,
  type ModelSelectionView,
} from './units/model-selection/model-selection.js';
export {
  agentPresetUnit,
  AGENT_PRESET_READS,
  type AgentPresetState,
  type AgentPresetView,
} from './units/agent-preset/agent-preset.js';
export {
  continuedFromUnit,
  CONTINUED_FROM_READS,
  type ContinuedFromState,
  type ContinuedFromView,
} from './units/continued-from/continued-from.js';
export {
  usageUnit,
  USAGE_READS,
  LONG_CONTEXT_TOKENS,
  type UsageState,
  type UsageTokens,
  type UsageModel,
  type ModelUsage,
  type HourUsage,
  type UsageFold,
  type UsageView,
} from './units/usage/usage.js';
