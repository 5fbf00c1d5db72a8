/**
 * Every stable error code of every package, in one table: the string code (owned by the package
 * named), the integer JSON-RPC code it travels with, and one line of meaning. The table is
 * assembled from the packages' declarations (`@strand/session/errors`, one file per owner); only
 * `host` maps package errors to it, and clients switch on `data.code`.
 *
 * Integers: the `-32xxx` codes are the ones that travelled before the table listed every code and
 * keep their numbers (fixed in their declarations); every other code has a number in its owner's
 * block of a hundred from `-33000` down (`OWNER_BLOCKS`), in declaration order. Most of those
 * never reach a client (a CLI or client code), but a number that is never reused keeps a log line
 * or a test unambiguous.
 */
import {
  ERROR_DECLARATIONS,
  JSON_RPC_ERRORS,
  type DeclaredErrorCode,
  type ErrorOwner,
} from '@strand/session/errors';
import { assembleErrorTable, renamedCodes } from './assemble-error-table.js';

export type { ErrorEntry } from './assemble-error-table.js';
export type { ErrorOwner };

/** The first integer of each owner's block for codes added after the `-32xxx` set. */
export const OWNER_BLOCKS: Readonly<Partial<Record<ErrorOwner, number>>> = Object.freeze({
  session: -33000,
  search: -33100,
  persistence: -33200,
  projection: -33300,
  'projection-cache': -33400,
  subagent: -33500,
  agent: -33600,
  // The coordination codes are the PostgreSQL package's (declared first in its block).
  postgres: -33700,
  host: -33800,
  runtime: -33900,
  import: -34000,
  cli: -34100,
  client: -34200,
});

/** The JSON-RPC 2.0 codes (`owner: 'json-rpc'`). */
export const RPC_ERROR_CODES = JSON_RPC_ERRORS.codes;
export type RpcErrorCode = (typeof RPC_ERROR_CODES)[number];

/** Every stable code with its wire integer, owner and meaning, assembled from the declarations. */
export const ERROR_TABLE = assembleErrorTable(ERROR_DECLARATIONS, OWNER_BLOCKS);

/** A code's old name → its current one, while clients still accept the old name. */
export const RENAMED_ERROR_CODES = renamedCodes(ERROR_DECLARATIONS);

export type WireErrorCode = DeclaredErrorCode;

export function isWireErrorCode(code: unknown): code is WireErrorCode {
  return typeof code === 'string' && Object.hasOwn(ERROR_TABLE, code);
}

/** The error a client call rejects with: the wire error, typed. */
export class StrandRpcError extends Error {
  override readonly name = 'StrandRpcError';
  constructor(
    readonly code: string,
    readonly rpcCode: number,
    message: string,
    readonly data: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
  }
}
