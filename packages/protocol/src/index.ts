export type { RpcId, RpcRequest, RpcNotification, RpcResponse, RpcErrorObject } from './json-rpc.js';
export {
  ERROR_TABLE,
  StrandRpcError,
  isWireErrorCode,
  type ErrorEntry,
  type WireErrorCode,
} from './errors.js';
export type {
  WireJson,
  WireSessionHeader,
  WireEvent,
  ProjectionValueMap,
  ProjectionHints,
  ProjectionBaseline,
  TitleValue,
  ListMetadataValue,
  ModelRouteValue,
  ModelSelectionValue,
  AgentPresetValue,
  UsageValue,
  SubagentIdentityValue,
  SubagentTimingValue,
  SubagentListEntry,
  SubagentListEntryOf,
  SubagentTreeEntry,
} from './session-types.js';
export type {
  SessionListRow,
  SearchHit,
  SearchResult,
  FollowSnapshot,
  FollowStopped,
  ModelCatalogEntry,
  PresetCatalogEntry,
  Methods,
  MethodName,
  ParamsOf,
  ResultOf,
  Notifications,
  NotificationName,
} from './methods.js';
export {
  FollowDraftParamsSchema,
  FOLLOW_DRAFT_METHOD,
  DRAFT_INTERVAL_MS,
  type FollowDraftParams,
} from './draft.js';
