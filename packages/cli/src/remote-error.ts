import { CLI_ERRORS } from '@strand/session/errors';

/** What a command meets at `--url`: no host answers, the host refused the token, or (`share`) there is no host. */
export const REMOTE_HOST_ERROR_CODES = [
  'CLI_HOST_UNREACHABLE',
  'CLI_HOST_UNAUTHORIZED',
  'CLI_SHARE_NEEDS_HOST',
] as const satisfies readonly (typeof CLI_ERRORS.codes)[number][];
export type RemoteHostErrorCode = (typeof REMOTE_HOST_ERROR_CODES)[number];

export class RemoteHostError extends CLI_ERRORS.errorClass<RemoteHostErrorCode>('RemoteHostError') {
  constructor(
    code: RemoteHostErrorCode,
    message: string,
    readonly url: string,
  ) {
    super(code, message);
  }

  protected override jsonFields(): { url: string } {
    return { url: this.url };
  }
}
