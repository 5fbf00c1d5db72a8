import { defined } from '@strand/session';
import { DataLockError } from './data-lock/errors.js';
import { findDataFolderHolder } from './data-lock/folder-holder.js';
import { probeHost } from './host-probe.js';

export interface HoldingHost {
  /** The host's web address, for messages. */
  readonly url: string;
  readonly rpcUrl: string;
  readonly token?: string;
}

/**
 * The host a read command should ask about `dataDir`, or undefined to read the folder itself.
 * The address comes from the lock record, so it is checked with one WebSocket upgrade first: a
 * client connection would otherwise retry a refusing or vanished host forever. A host that went
 * away meanwhile (its lock released) means the folder is free to read; one that still holds the
 * lock but does not answer, or refuses the token, is a clear error.
 */
export async function resolveHoldingHost(
  dataDir: string,
  token: string | undefined,
): Promise<HoldingHost | undefined> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const holder = await findDataFolderHolder(dataDir);
    if (holder.kind !== 'host') return undefined;
    const presented = token ?? holder.token;
    const answer = await probeHost(holder.rpcUrl, presented);
    const url = holder.record.host?.url ?? holder.rpcUrl;
    const where = `the host holding ${dataDir} (${url}, pid ${holder.record.pid})`;
    if (answer.kind === 'open') return { url, rpcUrl: holder.rpcUrl, ...defined({ token: presented }) };
    if (answer.kind === 'refused' && answer.status === 401)
      throw new DataLockError(
        'CLI_HOLDING_HOST_UNAUTHORIZED',
        `${where} refused the token${presented === undefined ? ' (none found: pass --token)' : ''}`,
        holder.record,
      );
    // Refused or failed: the host may be stopping — probe the lock once more.
    if (attempt === 1)
      throw new DataLockError(
        'CLI_HOLDING_HOST_UNREACHABLE',
        `${where} does not answer (${answer.kind === 'refused' ? `HTTP ${answer.status}` : answer.reason})`,
        holder.record,
      );
  }
  return undefined;
}
