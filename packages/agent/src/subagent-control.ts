/**
 * The subagent control domain (spawn/continue) this package drives. Its symbols live in
 * `packages/subagent/src/control/` and are meant to be imported from `@strand/subagent`; until the
 * subagent index exports them, this one module reaches them by path, so switching is one line.
 */
export {
  spawnSubagent,
  continueSubagent,
  isControlError,
  DEFAULT_MAX_DELEGATION_DEPTH,
  type ChildHandle,
  type ChildMessage,
  type ChildPlan,
  type ChildTurn,
  type ContinueObserveOptions,
  type ContinueResult,
  type SpawnMode,
  type SpawnResult,
} from '@strand/subagent';
