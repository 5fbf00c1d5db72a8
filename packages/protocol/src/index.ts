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
  SubagentListEntry,
  SubagentTreeEntry,
} from './session-types.js';
export type {
  SessionListRow,
  SearchHit,
  SearchResult,
  FollowSnapshot,
  ModelCatalogEntry,
  PresetCatalogEntry,
  Methods,
  MethodName,
  ParamsOf,
  ResultOf,
  Notifications,
  NotificationName,
} from './methods.js';
