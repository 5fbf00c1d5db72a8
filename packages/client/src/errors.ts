import { CLIENT_ERRORS } from '@strand/session/errors';

/** The client package's codes. Errors the host sends travel as `StrandRpcError` (protocol). */
export const STRAND_CLIENT_ERROR_CODES = CLIENT_ERRORS.codes;
export type StrandClientErrorCode = (typeof STRAND_CLIENT_ERROR_CODES)[number];

export class StrandClientError extends CLIENT_ERRORS.errorClass('StrandClientError') {}

export function isStrandClientError(
  error: unknown,
  code?: StrandClientErrorCode,
): error is StrandClientError {
  return error instanceof StrandClientError && (code === undefined || error.code === code);
}
