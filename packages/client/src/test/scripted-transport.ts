import type { FollowSnapshot, MethodName, ParamsOf, ResultOf, WireEvent } from '@strand/protocol';
import type { ConnectionState, IncomingNotification } from '../connection/strand-connection.js';
import { checkResult } from '../connection/result-check.js';
import type { FollowTransport } from '../follow/follow-transport.js';
import { SessionId } from '@strand/session';

/**
 * An in-memory `FollowTransport` whose calls the test answers by hand (checked with the method's
 * result schema, as the connection checks them), and whose notifications the test delivers at
 * chosen moments — so orderings a socket only produces by chance (a frame
 * dispatched before the snapshot's promise continuation) are reproduced on purpose.
 */
export interface PendingCall {
  readonly method: string;
  readonly params: Record<string, unknown>;
  readonly resolve: (result: unknown) => void;
  readonly reject: (error: unknown) => void;
}

export class ScriptedTransport implements FollowTransport {
  state: ConnectionState = 'open';
  epoch = 1;
  readonly calls: PendingCall[] = [];
  private readonly notificationListeners = new Set<(notification: IncomingNotification) => void>();
  private readonly stateListeners = new Set<(state: ConnectionState) => void>();

  call<M extends MethodName>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>> {
    return new Promise<ResultOf<M>>((resolve, reject) => {
      this.calls.push({
        method,
        params,
        // Answered through the edge check `StrandConnection` makes, so what reaches the follower is
        // what a real connection would hand it: a checked result, or the check's error.
        resolve: (result: unknown) => {
          const checked = checkResult(method, result);
          if (checked.kind === 'valid') resolve(checked.result);
          else reject(checked.error);
        },
        reject,
      });
    });
  }

  onNotification(listener: (notification: IncomingNotification) => void): () => void {
    this.notificationListeners.add(listener);
    return () => this.notificationListeners.delete(listener);
  }

  onStateChange(listener: (state: ConnectionState) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  /** The oldest unanswered call of `method`, removed from the list. */
  take(method: string): PendingCall {
    const index = this.calls.findIndex((call) => call.method === method);
    if (index < 0)
      throw new Error(`no pending ${method}; pending: ${this.calls.map((call) => call.method).join(', ')}`);
    return this.calls.splice(index, 1)[0]!;
  }

  has(method: string): boolean {
    return this.calls.some((call) => call.method === method);
  }

  notify(method: string, params: Record<string, unknown>, epoch = this.epoch): void {
    for (const listener of [...this.notificationListeners]) listener({ method, params, epoch });
  }

  events(followId: string, generation: number, events: WireEvent[]): void {
    this.notify('follow.events', { followId, generation, events });
  }

  setState(state: ConnectionState): void {
    if (state === 'open') this.epoch += 1;
    this.state = state;
    for (const listener of [...this.stateListeners]) listener(state);
  }
}

export function ev(seq: number): WireEvent {
  return { type: 'user/message', seq, time: seq, data: { content: `m${seq}` } };
}

export function evs(from: number, to: number): WireEvent[] {
  return Array.from({ length: Math.max(0, to - from) }, (_, index) => ev(from + index));
}

export function snapshotOf(options: {
  followId: string;
  generation: number;
  firstSeq: number;
  cursor: number;
  values?: Record<string, unknown>;
  createdAt?: number;
  id?: string;
}): FollowSnapshot {
  return {
    followId: options.followId,
    generation: options.generation,
    header: {
      version: 1,
      id: SessionId(options.id ?? 's'),
      createdAt: options.createdAt ?? 1,
      isSeeded: false,
    },
    inheritedEventCount: 0,
    cursor: options.cursor,
    firstSeq: options.firstSeq,
    events: evs(options.firstSeq, options.cursor),
    baseline: { asOfSeq: options.cursor - 1, values: options.values ?? {} },
    live: true,
    busy: false,
  };
}

/** Lets every queued promise continuation and follower step run. */
export async function drain(): Promise<void> {
  for (let round = 0; round < 5; round += 1) await new Promise<void>((resolve) => setTimeout(resolve, 0));
}
