import { defined } from '@strand/session';
import { AGENT_ERRORS, type StrandErrorOptions } from '@strand/session/errors';

/** The agent package's codes (declared in `@strand/session/errors`, documented in README.md). */
export const AGENT_ERROR_CODES = AGENT_ERRORS.codes;
export type AgentErrorCode = (typeof AGENT_ERROR_CODES)[number];

/** The agent package's one error class; `details` are facts a client may be shown. */
export class AgentError extends AGENT_ERRORS.errorClass('AgentError') {
  readonly sessionId: string | undefined;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(
    code: AgentErrorCode,
    message: string,
    options: StrandErrorOptions & { sessionId?: string; details?: Record<string, unknown> } = {},
  ) {
    super(code, message, options);
    this.sessionId = options.sessionId;
    this.details = options.details ?? {};
  }

  protected override jsonFields(): { sessionId?: string; details: Readonly<Record<string, unknown>> } {
    return { ...defined({ sessionId: this.sessionId }), details: this.details };
  }
}

export function isAgentError(error: unknown, code?: AgentErrorCode): error is AgentError {
  return error instanceof AgentError && (code === undefined || error.code === code);
}

/** The stable code of any error that carries one (agent, subagent control, session…), else undefined. */
export function stableCodeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && /^[A-Z][A-Z0-9_]*$/.test(code) ? code : undefined;
}
