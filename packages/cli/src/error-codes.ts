import { CLI_ERRORS } from '@strand/session/errors';

/** Every stable code the CLI throws itself, across its error classes (one declaration, one block). */
export const CLI_ERROR_CODES = CLI_ERRORS.codes;
export type CliErrorCode = (typeof CLI_ERROR_CODES)[number];
