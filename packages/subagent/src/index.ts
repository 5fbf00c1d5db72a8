export {
  SUBAGENT_DESCRIPTOR_EVENT,
  SUBAGENT_DESCRIPTOR_VERSION,
  parseSubagentDescriptor,
  descriptorEvent,
  DescriptorWriteError,
  type SubagentDescriptor,
  type DescriptorParse,
} from './descriptor.js';
export {
  SubagentControlError,
  isSubagentControlError,
  SUBAGENT_ERROR_CODES,
  type SubagentControlErrorCode,
  type SubagentControlErrorDetails,
} from './errors.js';
export type {
  SubagentIdentityProjection,
  SubagentIdentityState,
  SubagentTimingProjection,
  SubagentTimingState,
  SubagentActiveTurn,
} from './projection/projection-types.js';
export {
  subagentIdentityUnit,
  SUBAGENT_IDENTITY_KEY,
  SUBAGENT_IDENTITY_READS,
} from './projection/identity-unit.js';
export { subagentTimingUnit, SUBAGENT_TIMING_KEY } from './projection/timing-unit.js';
export { isSubagentIdentity, isSubagentTiming } from './projection/identity-shape.js';
export { registerSubagentUnits } from './projection/register.js';
export type {
  SubagentListEntry,
  SubagentDescendantEntry,
  SubagentListingContext,
  ListingProjections,
  ListingSessions,
  ListingQuery,
  ListingCache,
} from './listing/types.js';
export { listChildren } from './listing/list-children.js';
export { listDescendants } from './listing/list-descendants.js';
export {
  SUBAGENT_COLD_READ_CONCURRENCY,
  MAX_SUBAGENT_COLD_READ_CONCURRENCY,
  DEFAULT_LISTING_LIMITS,
  type ListingLimits,
} from './listing/limits.js';
export { LIFECYCLE_WITNESS_FIELDS } from './listing/witness.js';
export { renderAgentList, type AgentListScope } from './tools/render-agent-list.js';
export { toolParameters } from './tools/tool-parameters.js';
export {
  listAgentsTool,
  listAgentsArgsSchema,
  LIST_AGENTS_TOOL_NAME,
  type ListAgentsArgs,
  type SubagentTool,
} from './tools/list-agents.js';
export {
  controlError,
  isControlError,
  lastClosedTurnCut,
  planChild,
  delegationDepthOf,
  DEFAULT_MAX_DELEGATION_DEPTH,
  spawnSubagent,
  resolveContinuable,
  continueSubagent,
  type ControlErrorCode,
  type ControlFlowCode,
  type ForkCut,
  type ChildPlan,
  type ParentView,
  type PlanChildOptions,
  type SpawnMode,
  type SpawnRequest,
  type SpawnDeps,
  type SpawnResult,
  type ContinuableChild,
  type ObservedChild,
  type ContinueDeps,
  type ContinueObserveOptions,
  type ContinueRequest,
  type ContinueResult,
  type ChildHandle,
  type ChildMessage,
  type ChildTurn,
} from './control/index.js';
