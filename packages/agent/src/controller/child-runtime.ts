import type { SessionPersistence } from '@strand/persistence';
import type { SessionObservation, SessionQuery } from '@strand/query';
import type { Session, SessionId } from '@strand/session';
import { AgentError } from '../errors.js';
import type { ChildHandle, ChildPlan } from '../subagent-control.js';
import type { SubagentRuntime } from '../tools/tool.js';
import { childHandleOf } from './child-handle.js';
import type { LiveAgent } from './live-agent.js';
import { createStoredSession } from './stored-session.js';

/** What the controller lends the child capabilities. */
export interface ChildRuntimeHost {
  readonly persistence: SessionPersistence;
  readonly query: SessionQuery;
  readonly maxDepth: number;
  readonly newSessionId: () => SessionId;
  readonly now: () => number;
  assertOpen(): void;
  /** Attaches a new live session and its agent. */
  attach(session: Session): LiveAgent;
  /** Runs `work` as this host's owner of `id` (taken first, given back if `work` fails). */
  owned<T>(id: SessionId, work: () => Promise<T>): Promise<T>;
  /** The agent for an observed session: live here, in flight, or published from its prepared log. */
  adopt(observation: SessionObservation): Promise<LiveAgent>;
}

/**
 * The child capabilities one calling agent gets for one tool call. The control functions have
 * already decided everything (plan, authorization); these only carry it out: `start` creates the
 * child durably with its descriptor first and only then attaches it, so no reader ever sees a live
 * child without its identity; `resume` publishes a cold child from the observation it was given.
 */
export function childRuntimeFor(host: ChildRuntimeHost, caller: LiveAgent): SubagentRuntime {
  return {
    maxDepth: host.maxDepth,
    newSessionId: host.newSessionId,
    now: host.now,
    start: (plan) => startChild(host, caller, plan),
    observe: (id, options) => host.query.observeSession(id, options),
    resume: (observation) => resumeChild(host, observation),
  };
}

async function startChild(host: ChildRuntimeHost, caller: LiveAgent, plan: ChildPlan): Promise<ChildHandle> {
  host.assertOpen();
  if (plan.header.parentSession !== caller.id || plan.header.origin !== 'subagent') {
    throw new AgentError(
      'AGENT_CONFIG_INVALID',
      `a child planned for ${String(plan.header.parentSession)} cannot be started by ${caller.id}`,
      {
        sessionId: caller.id,
      },
    );
  }
  const agent = await host.owned(plan.header.id, async () => {
    const session = await createStoredSession(host.persistence, {
      header: plan.header,
      inheritedEvents: plan.inheritedEvents,
      inheritedEventCount: plan.inheritedEventCount,
      firstEvents: plan.firstEvents,
    });
    return host.attach(session);
  });
  return childHandleOf(agent, agent.retain());
}

/** Takes ownership of the observation (disposes it in every outcome). */
async function resumeChild(host: ChildRuntimeHost, observation: SessionObservation): Promise<ChildHandle> {
  try {
    host.assertOpen();
    const agent = await host.adopt(observation);
    return childHandleOf(agent, agent.retain());
  } finally {
    observation.dispose();
  }
}
