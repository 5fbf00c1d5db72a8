/**
 * Every package's error declarations, in one list: `protocol` assembles the wire table from it,
 * and each owning package builds its classes from its own entry. Browser-safe (no `node:`), so
 * every client reads the same codes and meanings. Exported as `@strand/session/errors`.
 */
import { AGENT_ERRORS } from './agent.js';
import { CLI_ERRORS } from './cli.js';
import { CLIENT_ERRORS } from './client.js';
import { HOST_ERRORS } from './host.js';
import { IMPORT_ERRORS } from './import.js';
import { JSON_RPC_ERRORS } from './json-rpc.js';
import { PERSISTENCE_ERRORS } from './persistence.js';
import { POSTGRES_ERRORS } from './postgres.js';
import { PROJECTION_CACHE_ERRORS } from './projection-cache.js';
import { PROJECTION_ERRORS } from './projection.js';
import { SESSION_QUERY_ERRORS } from './query.js';
import { RUNTIME_ERRORS } from './runtime.js';
import { SEARCH_INDEX_ERRORS } from './search.js';
import { SESSION_ERRORS } from './session.js';
import { SUBAGENT_ERRORS } from './subagent.js';

export {
  AGENT_ERRORS,
  CLI_ERRORS,
  CLIENT_ERRORS,
  HOST_ERRORS,
  IMPORT_ERRORS,
  JSON_RPC_ERRORS,
  PERSISTENCE_ERRORS,
  POSTGRES_ERRORS,
  PROJECTION_CACHE_ERRORS,
  PROJECTION_ERRORS,
  SESSION_QUERY_ERRORS,
  RUNTIME_ERRORS,
  SEARCH_INDEX_ERRORS,
  SESSION_ERRORS,
  SUBAGENT_ERRORS,
};
export {
  defineErrors,
  isStrandError,
  StrandError,
  type DeclaredCodes,
  type DefinedErrors,
  type ErrorDeclaration,
  type StrandCodeErrorClass,
  type StrandErrorClass,
  type StrandErrorJson,
  type StrandErrorOptions,
} from '../define-errors.js';

/** Every declaration the wire table is assembled from, in the table's order. */
export const ERROR_DECLARATIONS = [
  JSON_RPC_ERRORS,
  HOST_ERRORS,
  SESSION_ERRORS,
  SESSION_QUERY_ERRORS,
  SEARCH_INDEX_ERRORS,
  PERSISTENCE_ERRORS,
  PROJECTION_ERRORS,
  PROJECTION_CACHE_ERRORS,
  SUBAGENT_ERRORS,
  AGENT_ERRORS,
  POSTGRES_ERRORS,
  RUNTIME_ERRORS,
  IMPORT_ERRORS,
  CLI_ERRORS,
  CLIENT_ERRORS,
] as const;

/** Every declared code. */
export type DeclaredErrorCode = (typeof ERROR_DECLARATIONS)[number]['codes'][number];
/** Every owner that declares codes. */
export type ErrorOwner = (typeof ERROR_DECLARATIONS)[number]['owner'];
