/**
 * Why a harness export was not written, for its caller to say in its own words and code: the CLI
 * (`CLI_EXPORT_TARGET_NOT_OURS`, one line) and the host (`HOST_EXPORT_*` on the wire).
 * - `not-ours`: the target file is neither absent, nor identical, nor Strand's untouched export;
 * - `not-continuable`: the session cannot be a transcript there (no working folder, a folder the
 *   harness cannot name, no conversation yet);
 * - `write-failed`: the file system refused (a read-only or full home, the harness's registry
 *   locked); nothing half-written is left.
 */
export type HarnessWriteReason = 'not-ours' | 'not-continuable' | 'write-failed';

export class HarnessWriteError extends Error {
  override readonly name = 'HarnessWriteError';
  constructor(
    readonly reason: HarnessWriteReason,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
