import type { FollowSnapshot } from '@strand/protocol';
import type { RpcCaller } from '../connection/rpc-caller.js';
import { joinSnapshot, type EventWindow } from './event-window.js';
import type { ShownGeneration } from './follow-view.js';
import { pageForward } from './page-forward.js';
import { windowOf } from './shown-generation.js';

export interface JoinOptions {
  readonly maxGapFill: number;
  readonly pageLimit: number;
  /** False once the opening this join serves was superseded (a newer follow, a lost socket, unfollow). */
  readonly isCurrent: () => boolean;
}

export type GenerationWindow =
  /** `sameLog: false`: the previous generation showed another log under this id (recreated). */
  | { readonly kind: 'window'; readonly window: EventWindow; readonly sameLog: boolean }
  | { readonly kind: 'superseded' };

/**
 * The window a validated snapshot is shown with: joined to the previous generation's window when
 * they touch; after paging in a hole of at most `maxGapFill` events; else the snapshot's own.
 * A different `createdAt` means the id names another log now, whose seqs restarted: nothing joins.
 */
export async function windowForSnapshot(
  rpc: RpcCaller,
  previous: ShownGeneration | null,
  snapshot: FollowSnapshot,
  options: JoinOptions,
): Promise<GenerationWindow> {
  const next: EventWindow = { firstSeq: snapshot.firstSeq, events: snapshot.events };
  const sameLog = previous === null || previous.header.createdAt === snapshot.header.createdAt;
  const start = previous !== null && sameLog ? windowOf(previous) : null;
  let join = joinSnapshot(start, next);
  if (join.kind === 'gap' && start !== null && join.to - join.from <= options.maxGapFill) {
    const id = snapshot.header.id;
    const filled = await pageForward(rpc, id, start, join.to, options.isCurrent, options.pageLimit);
    if (filled.kind === 'superseded') return filled;
    if (filled.kind === 'filled') join = joinSnapshot(filled.window, next);
  }
  return { kind: 'window', window: join.kind === 'gap' ? next : join.window, sameLog };
}
