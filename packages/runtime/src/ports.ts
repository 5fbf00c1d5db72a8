import { defined } from '@strand/session';
import { isAgentError, type AgentController, type AgentLease } from '@strand/agent';
import type { PresetCatalogEntry, ModelCatalogEntry } from '@strand/protocol';
import { listChildren, listDescendants, type SubagentListingContext } from '@strand/subagent';
import type { SessionId } from '@strand/session';
import type { AgentPort, CatalogPort, SubagentPort } from '@strand/host';

/** Adapts the agent controller to the host's port; promotion leases live until the follow ends. */
export function agentPort(controller: AgentController): AgentPort {
  return {
    async createSession(input) {
      const lease = await controller.create({
        ...defined({ cwd: input.cwd, agentPreset: input.preset, model: input.model }),
      });
      // The session is created and persisted; an idle agent need not stay attached.
      const session = lease.agent.session;
      lease.release();
      return session;
    },
    async prompt(id, text) {
      await controller.prompt(id, text);
    },
    cancel(id) {
      return Promise.resolve(controller.cancel(id));
    },
    async withLiveSession(id, work, signal) {
      let lease: AgentLease;
      try {
        lease = await controller.activate(id, { signal });
      } catch (error) {
        throw storageFailureOf(error);
      }
      try {
        return await work(lease.agent.session);
      } finally {
        lease.release();
      }
    },
    async promote(observation) {
      const lease = await controller.promote(observation);
      return () => lease.release();
    },
    isBusy(id) {
      return controller.status(id) === 'running';
    },
    onBusyChange(listener) {
      return controller.onChange((change) => {
        if (change.kind === 'status') listener(change.agent.id, change.status === 'running');
        else if (change.kind === 'detached') listener(change.agent.id, false);
      });
    },
    onDraft(listener) {
      return controller.onChange((change) => {
        if (change.kind === 'draft') listener(change.agent.id, change.step, change.text);
      });
    },
  };
}

export function subagentPort(ctx: SubagentListingContext): SubagentPort {
  return {
    async list(id: SessionId, scope, signal) {
      return scope === 'descendants' ? listDescendants(ctx, id, signal) : listChildren(ctx, id, signal);
    },
  };
}

export function catalogPort(
  models: readonly ModelCatalogEntry[],
  presets: readonly PresetCatalogEntry[],
): CatalogPort {
  return {
    models: () => Promise.resolve(models),
    presets: () => Promise.resolve(presets),
  };
}

/**
 * A command that only appends (rename, select) is no agent's business: when publishing the
 * session failed in storage, it answers the storage's own typed error (`PERSISTENCE_IO`,
 * `SESSION_WRITE_FAILED`), as a write on a live session does, not the agent's wrapper.
 */
function storageFailureOf(error: unknown): unknown {
  if (!isAgentError(error, 'AGENT_PERSISTENCE_FAILED')) return error;
  const cause = (error as { cause?: unknown }).cause;
  const code = (cause as { code?: unknown } | null | undefined)?.code;
  return cause instanceof Error && typeof code === 'string' && /^[A-Z][A-Z_]+$/.test(code) ? cause : error;
}
