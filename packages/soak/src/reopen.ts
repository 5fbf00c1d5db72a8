import { StrandConnection } from '@strand/client';
import { StrandRpcError, type WireEvent } from '@strand/protocol';
import { WebSocket } from 'ws';

/** How long one session may take to answer a prompt with its `turn/end`: a hang guard, not a figure. */
const TURN_GUARD_MS = 60_000;
/** Sessions reopened at once. */
const AT_ONCE = 4;

/**
 * The last promise: every stored session reopens on a fresh host and takes a prompt — the prompt is
 * accepted and its turn ends (`turn/end` delivered to a follower). Returns the sessions that did not, with why.
 */
export async function reopenEverySession(
  rpcUrl: string,
  sessions: readonly string[],
): Promise<{ session: string; reason: string }[]> {
  const connection = new StrandConnection({ url: rpcUrl, WebSocket: WebSocket });
  const failed: { session: string; reason: string }[] = [];
  try {
    const queue = [...sessions];
    const worker = async (): Promise<void> => {
      for (let session = queue.shift(); session !== undefined; session = queue.shift()) {
        const reason = await takesAPrompt(connection, session);
        if (reason !== undefined) failed.push({ session, reason });
      }
    };
    await Promise.all(Array.from({ length: AT_ONCE }, worker));
  } finally {
    connection.close();
  }
  return failed;
}

async function takesAPrompt(connection: StrandConnection, id: string): Promise<string | undefined> {
  let followId: string | undefined;
  let from = Number.POSITIVE_INFINITY;
  let settle: (reason: string | undefined) => void = () => undefined;
  const ended = new Promise<string | undefined>((resolve) => (settle = resolve));
  const stop = connection.onNotification(({ method, params }) => {
    const frame = params as { followId: string; events?: WireEvent[]; stopped?: { message: string } };
    if (frame.followId !== followId) return;
    if (method === 'follow.events' && frame.events!.some((e) => e.type === 'turn/end' && e.seq >= from))
      settle(undefined);
    if (method === 'follow.state' && frame.stopped !== undefined) settle(`stopped: ${frame.stopped.message}`);
  });
  const guard = setTimeout(() => settle(`no turn/end within ${TURN_GUARD_MS / 1000} s`), TURN_GUARD_MS);
  try {
    const snapshot = await connection.call('session.follow', { id });
    followId = snapshot.followId;
    from = snapshot.cursor;
    await connection.call('session.prompt', { id, text: 'soak: reopened' });
    return await ended;
  } catch (error) {
    return error instanceof StrandRpcError ? `${error.code}: ${error.message}` : String(error);
  } finally {
    clearTimeout(guard);
    stop();
    if (followId !== undefined)
      await connection.call('session.unfollow', { followId }).catch(() => undefined);
  }
}
