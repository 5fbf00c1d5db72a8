/**
 * A session digest module for tests (`SessionDigestOption.module`): what each lane was handed,
 * as plain data — the session, how many events, the last seq, the incarnation and the thread.
 * A session whose id contains `digest-throws` makes it throw (a digest that breaks its contract);
 * with `STRAND_PROBE_WORKER_EXITS=1` in the environment, a worker thread that digests a session
 * exits with code 3 (a lane that dies with a file in flight).
 */
import { isMainThread, threadId } from 'node:worker_threads';
import type { WrittenSession } from '../write/write-plan.js';

export interface ProbeDigest {
  readonly id: string;
  readonly events: number;
  readonly lastSeq: number | undefined;
  readonly incarnation: string;
  readonly inherited: number;
  readonly threadId: number;
}

export function digestSession(session: WrittenSession): ProbeDigest {
  if (session.header.id.includes('digest-throws')) throw new Error('the probe digest threw');
  if (!isMainThread && process.env.STRAND_PROBE_WORKER_EXITS === '1') process.exit(3);
  return {
    id: session.header.id,
    events: session.events.length,
    lastSeq: session.events.at(-1)?.seq,
    incarnation: session.incarnation,
    inherited: session.inheritedEventCount,
    threadId,
  };
}
