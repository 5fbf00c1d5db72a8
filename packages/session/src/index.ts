export { reportTo, silentLogger, type LogFields, type LogLevel, type Logger } from './logger.js';
export { SESSION_ERROR_CODES, SessionError, type SessionErrorCode } from './errors.js';
export { SessionId, SessionSeq, SessionLogOffset, isSessionId, asOfSeqAt } from './ids.js';
export { isRecord, jsonEqual } from './json-shape.js';
export { toFrozenJson, deepFreezeParsed, type JsonValue, type JsonObject } from './json.js';
export {
  parseSessionHeader,
  newSessionHeader,
  sessionHeaderSchema,
  sessionSourceSchema,
  SESSION_HEADER_FIELDS,
  SESSION_HEADER_KEYS,
  type SessionHeaderKey,
  SESSION_HEADER_VERSION,
  isReadOnlySession,
  assertWritableSession,
  type SessionSource,
  type SessionHeader,
  type NewSessionHeader,
} from './header.js';
export {
  HARNESS_NAME_PATTERN,
  HARNESS_LABELS,
  KNOWN_HARNESSES,
  STRAND_HARNESS,
  harnessNameSchema,
  harnessLabel,
  isHarnessName,
  sessionHarness,
} from './harness-names.js';
export { projectNameOf } from './project-name.js';
export { isEventOfType, type SessionEvent, type SessionEventInput, type CoreEvent } from './event.js';
export {
  CORE_EVENT_SCHEMAS,
  CORE_EVENT_TYPES,
  TURN_END_REASONS,
  MESSAGE_AUTHORS,
  COMMAND_OUTPUT_STREAMS,
  messageContentSchema,
  usageSchema,
  USAGE_KINDS,
  isCoreEventType,
  readCoreEvent,
  messageText,
  commandLine,
  type CoreEventType,
  type CoreEventDataMap,
  type KnownCoreEvent,
  type MessageContent,
  type UsageRecord,
  type UsageKind,
  type TurnEndReason,
} from './core-events.js';
export { plainTerminalText } from './terminal-text.js';
export { checkCoreEventData } from './core-event-check.js';
export type { DeepReadonly } from './deep-readonly.js';
export { Session, type SessionInit, type SessionWriter, type AppendListener } from './session.js';
export { SessionStore, type StoreChange, type StoreListener } from './store.js';
export { planFork, type ForkPlan } from './fork.js';
export { repairClosers, repairEvents } from './repair.js';
export { openWorkAt, isClosedTurnBoundary, endOfTurnContaining, type OpenWork } from './turns.js';
export { checkLogInvariants, type LogViolation } from './invariants.js';
export { SerialQueue } from './serial-queue.js';
export { defined, type Defined } from './defined.js';
