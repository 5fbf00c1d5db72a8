import { createServer } from 'node:net';
import { CLI_ERRORS } from '@strand/session/errors';

/** `strand serve`'s own code: the port it was given is taken. */
export const SERVE_ERROR_CODES = [
  'CLI_SERVE_PORT_IN_USE',
] as const satisfies readonly (typeof CLI_ERRORS.codes)[number][];
export type ServeErrorCode = (typeof SERVE_ERROR_CODES)[number];

export class ServeError extends CLI_ERRORS.errorClass<ServeErrorCode>('ServeError') {}

/**
 * Fails `CLI_SERVE_PORT_IN_USE` when another process listens on `host:port`, by binding it once
 * and letting go: `serve` asks before it takes the data folder's lock or creates the folder, so a
 * busy port leaves nothing behind. Port 0 (any free port) cannot be busy. Another failure to bind
 * (a privileged port, an address not on this machine) is thrown as it is, as early.
 */
export async function assertPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return;
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen({ host, port, exclusive: true }, () => resolve());
  }).catch((error: unknown) => {
    throw portInUseOr(host, port, error);
  });
  await new Promise<void>((resolve) => probe.close(() => resolve()));
}

/**
 * The host's own bind failing the same way (another process took the port between the check and
 * the start) says the same thing.
 */
export function portInUseOr(host: string, port: number, error: unknown): unknown {
  return isAddressInUse(error) ? portInUse(host, port, error) : error;
}

function portInUse(host: string, port: number, cause: unknown): ServeError {
  return new ServeError(
    'CLI_SERVE_PORT_IN_USE',
    `port ${port} on ${host} is in use (another strand serve?): pass another --port, or --port 0 for any free one`,
    { cause },
  );
}

function isAddressInUse(error: unknown): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
}
