export {
  STRAND_CLIENT_ERROR_CODES,
  StrandClientError,
  isStrandClientError,
  type StrandClientErrorCode,
} from './errors.js';
export { KeyedListeners, type ListenerErrorReporter } from './listeners.js';

export {
  ProjectionStore,
  type StoreResult,
  type ProjectionLookup,
  type ProjectionChange,
  type ProjectionListener,
} from './projection-store/projection-store.js';
export {
  mergeHints,
  mergeBaseline,
  mergeFrame,
  type MergeResult,
  type ProjectionRow,
  type ProjectionRows,
  type ProjectionFrameInput,
} from './projection-store/merge.js';
export { applySessionList } from './projection-store/apply-session-list.js';

export {
  catalogLoading,
  catalogRefreshing,
  catalogLoaded,
  catalogFailed,
  type CatalogState,
  type CatalogValue,
} from './catalog/catalog-state.js';
export {
  Catalog,
  createModelCatalog,
  createPresetCatalog,
  type ModelCatalog,
  type PresetCatalog,
} from './catalog/catalog.js';
export { selectModel, resolveModel, type ModelDisplay, type ResolvedModel } from './catalog/select-model.js';
export { selectPreset, type PresetDisplay, type ResolvedPreset } from './catalog/select-preset.js';

export {
  StrandConnection,
  UNCORRELATED_CLOSE_CODE,
  type ConnectionState,
  type IncomingNotification,
  type StrandConnectionOptions,
} from './connection/strand-connection.js';
export type { RpcCaller } from './connection/rpc-caller.js';
export type { WebSocketLike, WebSocketConstructor } from './connection/web-socket-like.js';
export { backoffDelay, DEFAULT_BACKOFF, type BackoffPolicy } from './connection/backoff.js';
export type { Timers } from './connection/timers.js';

export { ListChanges, type ListChangeFilter, type ListChangeHandlers } from './list/list-changes.js';
export { SessionFollower, type SessionFollowerOptions } from './follow/session-follower.js';
export type { FollowTransport } from './follow/follow-transport.js';
export type { FollowPhase, FollowView, ShownGeneration, LoadOlderResult } from './follow/follow-view.js';
export { FollowDrafts, type DraftSource } from './follow/follow-drafts.js';
export { judgeDraft, type FollowDraft, type DraftVerdict } from './follow/visible-draft.js';
export {
  readUsageValue,
  usageLine,
  modelNames,
  type UsageValueView,
  type UsageTokensView,
  type UsageModelView,
} from './usage/usage-text.js';
