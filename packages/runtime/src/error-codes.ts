import { RUNTIME_ERRORS } from '@strand/session/errors';

/** The runtime's codes: each is a start-up refusal of its configuration, one class per code. */
export const RUNTIME_ERROR_CODES = RUNTIME_ERRORS.codes;
export type RuntimeErrorCode = (typeof RUNTIME_ERROR_CODES)[number];
