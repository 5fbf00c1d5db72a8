/**
 * - `CLI_HOST_UNREACHABLE`: no host answers at `--url` (nothing listening, a timeout, not a
 *   Strand host).
 * - `CLI_HOST_UNAUTHORIZED`: the host at `--url` refused the token (none given, or a wrong one).
 */
export type RemoteHostErrorCode = (typeof REMOTE_HOST_ERROR_CODES)[number];

export const REMOTE_HOST_ERROR_CODES = ['CLI_HOST_UNREACHABLE', 'CLI_HOST_UNAUTHORIZED'] as const;

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
