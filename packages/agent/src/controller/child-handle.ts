import { defined } from '@strand/session';
import type { AgentLease, TurnOutcome } from '../agent.js';
import type { ChildHandle, ChildTurn } from '../subagent-control.js';
import type { LiveAgent } from './live-agent.js';

/** A parent's lease on a child's agent, in the shape the subagent control functions drive. */
export function childHandleOf(agent: LiveAgent, lease: AgentLease): ChildHandle {
  return {
    id: agent.id,
    run: async (message, signal) => childTurnOf(await agent.start(message, defined({ signal })).outcome),
    release: () => lease.release(),
  };
}

function childTurnOf(outcome: TurnOutcome): ChildTurn {
  return {
    reason: outcome.reason,
    text: outcome.text,
    ...(outcome.error === undefined
      ? {}
      : { error: { code: outcome.error.code, message: outcome.error.message } }),
  };
}
