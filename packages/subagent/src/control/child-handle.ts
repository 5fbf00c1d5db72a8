import type { MessageContent, SessionId, TurnEndReason } from '@strand/session';

/** What a parent writes to its child: always a `user/message` authored by an agent (packages/session/README.md, core vocabulary). */
export interface ChildMessage {
  readonly content: MessageContent;
  readonly author: 'agent';
}

/** How one turn of a child ended, as its parent is told. */
export interface ChildTurn {
  readonly reason: TurnEndReason;
  /** The child's last assistant text in that turn (`''` when it wrote none). */
  readonly text: string;
  /** Set when the turn ended `error` or `interrupted`: the runtime's stable code and message. */
  readonly error?: { readonly code: string; readonly message: string };
}

/**
 * A child session with an agent attached, handed to the control functions by the agent runtime
 * (the dependency is injected, so this package never runs turns itself). The handle is a lease:
 * `release` lets the child settle and go cold once its turn is over; `run` drives one turn.
 */
export interface ChildHandle {
  readonly id: SessionId;
  run(message: ChildMessage, signal?: AbortSignal): Promise<ChildTurn>;
  release(): void;
}
