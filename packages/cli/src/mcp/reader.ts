import type { StrandReader } from '@strand/mcp';
import { withConnection, type RemoteOptions } from '../remote.js';

/**
 * How `strand mcp` on stdio reads: one host connection per tool call. Each call picks its target again — `--url`, else the host holding the data folder, else the
 * folder through a short-lived embedded host (no lock taken, temp files left alone) — because an
 * MCP server lives as long as the agent's conversation: a host started or stopped meanwhile must
 * be seen, and an embedded reader must not keep the folder's databases open between calls.
 */
export function strandReader(options: RemoteOptions): StrandReader {
  return (fn) => withConnection(options, fn);
}
