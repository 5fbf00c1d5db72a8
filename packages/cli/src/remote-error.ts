/**
 * - `CLI_HOST_UNREACHABLE`: no host answers at `--url` (nothing listening, a timeout, not a
 *   Strand host).
 * - `CLI_HOST_UNAUTHORIZED`: the host at `--url` refused the token (none given, or a wrong one).
 */
export type RemoteHostErrorCode = 'CLI_HOST_UNREACHABLE' | 'CLI_HOST_UNAUTHORIZED';

/** Every `RemoteHostErrorCode` (the `satisfies` keeps the list equal to the union). */
export const REMOTE_HOST_ERROR_CODES = Object.freeze(
  Object.keys({
    CLI_HOST_UNREACHABLE: true,
    CLI_HOST_UNAUTHORIZED: true,
  } satisfies Record<RemoteHostErrorCode, true>),
) as readonly RemoteHostErrorCode[];

export class RemoteHostError extends Error {
  override readonly name = 'RemoteHostError';
  constructor(
    readonly code: RemoteHostErrorCode,
    message: string,
    readonly url: string,
  ) {
    super(message);
  }

  toJSON(): { code: RemoteHostErrorCode; message: string; url: string } {
    return { code: this.code, message: this.message, url: this.url };
  }
}
