export { openTempStack, type TempStack, type TempStackOptions } from './temp-stack.js';
export { turn, writeStoredSession, type StoredSessionOptions } from './stored-sessions.js';
