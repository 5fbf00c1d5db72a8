import type { StrandConnection } from '@strand/client';
import { withConnection, type RemoteOptions } from '../remote.js';

/** How the MCP server reads: one host connection per tool call. */
export type StrandReader = <T>(fn: (connection: StrandConnection) => Promise<T>) => Promise<T>;

/**
 * Each call picks its target again — `--url`, else the host holding the data folder, else the
 * folder through a short-lived embedded host (no lock taken, temp files left alone) — because an
 * MCP server lives as long as the agent's conversation: a host started or stopped meanwhile must
 * be seen, and an embedded reader must not keep the folder's databases open between calls.
 */
export function strandReader(options: RemoteOptions): StrandReader {
  return (fn) => withConnection(options, fn);
}
