import { SessionId } from '@strand/session';

/** Strand ids of Claude Code sessions: deterministic from the transcript's own ids. */
export const claudeMainId = (sessionId: string): SessionId => SessionId(`claude-${sessionId}`);
/** A subagent file (2.0 flat or 2.1 `subagents/`): the parent's session id plus the agent id. */
export const claudeAgentId = (sessionId: string, agentId: string): SessionId =>
  SessionId(`claude-${sessionId}-agent-${agentId}`);
/** An inline 1.0 sidechain: the parent's session id plus the uuid of the sidechain's first line. */
export const claudeSidechainId = (sessionId: string, rootUuid: string): SessionId =>
  SessionId(`claude-${sessionId}-sidechain-${rootUuid}`);
