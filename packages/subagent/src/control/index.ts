export { controlError, isControlError, type ControlErrorCode, type ControlFlowCode } from './errors.js';
export type { ChildHandle, ChildMessage, ChildTurn } from './child-handle.js';
export { lastClosedTurnCut, type ForkCut } from './fork-cut.js';
export {
  planChild,
  delegationDepthOf,
  DEFAULT_MAX_DELEGATION_DEPTH,
  type ChildPlan,
  type ParentView,
  type PlanChildOptions,
  type SpawnMode,
  type SpawnRequest,
} from './plan-child.js';
export { spawnSubagent, type SpawnDeps, type SpawnResult } from './spawn.js';
export { resolveContinuable, type ContinuableChild, type ObservedChild } from './resolve-continuable.js';
export {
  continueSubagent,
  type ContinueDeps,
  type ContinueObserveOptions,
  type ContinueRequest,
  type ContinueResult,
} from './continue.js';
