export { reportTo, silentLogger, type LogFields, type LogLevel, type Logger } from './logger.js';
export { SESSION_ERROR_CODES, SessionError, type SessionErrorCode } from './errors.js';
export { SessionId, SessionSeq, SessionLogOffset, isSessionId, asOfSeqAt } from './ids.js';
export { isRecord, jsonEqual } from './json-shape.js';
export { toFrozenJson, deepFreezeParsed, type JsonValue, type JsonObject } from './json.js';
export {
  parseSessionHeader,
  newSessionHeader,
  SESSION_HEADER_VERSION,
  SOURCE_HARNESSES,
  isReadOnlySession,
  assertWritableSession,
  type SessionSource,
  type SourceHarness,
  type SessionHeader,
  type NewSessionHeader,
} from './header.js';
export {
  isEventOfType,
  type SessionEvent,
  type SessionEventInput,
  type CoreEvent,
  type CoreEventType,
  type CoreEventDataMap,
  type MessageContent,
  type TurnEndReason,
} from './event.js';
export { checkCoreEventData, CORE_SCHEMAS } from './core-schemas.js';
export { Session, type SessionInit, type SessionWriter, type AppendListener } from './session.js';
export { SessionStore, type StoreChange, type StoreListener } from './store.js';
export { planFork, type ForkPlan } from './fork.js';
export { repairClosers, repairEvents } from './repair.js';
export { openWorkAt, isClosedTurnBoundary, endOfTurnContaining, type OpenWork } from './turns.js';
export { checkLogInvariants, type LogViolation } from './invariants.js';
