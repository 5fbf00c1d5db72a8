/**
 * The agent package's one error class. Codes are stable strings (documented in README.md);
 * callers switch on `code`, never on `message`. `cause` keeps the underlying error.
 */
export type AgentErrorCode = (typeof AGENT_ERROR_CODES)[number];

export const AGENT_ERROR_CODES = [
  /** `prompt` while a turn is running on that agent. */
  'AGENT_BUSY',
  /** A prompt, promotion or activation of an `origin: 'subagent'` session: only its parent drives it. */
  'AGENT_CHILD_SESSION',
  /** The agent has detached (its session went cold); activate the session again. */
  'AGENT_DETACHED',
  /** `promote` got an observation that is not a retained cold cut backed by a prepared session. */
  'AGENT_PROMOTION_UNPREPARED',
  /** The stored log changed after the observation handed to `promote` was read. */
  'AGENT_PROMOTION_STALE',
  /** The session is live in the store but attached by someone other than this controller. */
  'AGENT_SESSION_LIVE_ELSEWHERE',
  /** This host lost ownership of the session (its lease could not be renewed); the agent stopped (reported, not thrown). */
  'AGENT_OWNERSHIP_LOST',
  /** `activate` of an id that is neither live nor stored. */
  'AGENT_SESSION_NOT_FOUND',
  /** Creating, reading or publishing a session failed in the layers below. */
  'AGENT_PERSISTENCE_FAILED',
  /** A model request failed (HTTP error, refused, unreadable stream); the turn ends `error`. */
  'AGENT_MODEL_FAILED',
  /** A model stream broke off mid-way (disconnect, idle timeout); the turn ends `interrupted`. */
  'AGENT_MODEL_INTERRUPTED',
  /** The model's API key environment variable is unset or empty; the turn ends `error`. */
  'AGENT_MODEL_NOT_CONFIGURED',
  /** A turn used more model steps than `maxSteps`; it ends `error`. */
  'AGENT_STEP_LIMIT',
  /**
   * The session's model (its `modelSelection`, or a prompt's override) is not one this host runs
   * — the configuration changed, or the session was imported; the turn is refused before it starts.
   */
  'AGENT_MODEL_UNAVAILABLE',
  /** The session's preset is not one this host knows (configuration changed); the turn is refused before it starts. */
  'AGENT_PRESET_UNAVAILABLE',
  /** The model called a tool that is not registered (a `tool/result` error). */
  'AGENT_TOOL_UNKNOWN',
  /** The model called a registered tool its session's preset does not allow (a `tool/result` error; the tool did not run). */
  'AGENT_TOOL_NOT_ALLOWED',
  /** A tool's arguments are not JSON or do not match its schema (a `tool/result` error). */
  'AGENT_TOOL_ARGUMENTS_INVALID',
  /** A tool threw an error without a stable code of its own (a `tool/result` error). */
  'AGENT_TOOL_FAILED',
  /** A tool call the model issued was not run because the turn ended first (a `tool/result` error). */
  'AGENT_TOOL_NOT_RUN',
  /** The turn was cancelled; it ends `aborted`. Also the code of a cancelled tool's result. */
  'AGENT_CANCELLED',
  /** Invalid configuration (a bad base URL, a negative limit, a duplicate tool name). */
  'AGENT_CONFIG_INVALID',
  /** The controller was closed. */
  'AGENT_CLOSED',
] as const;

export class AgentError extends Error {
  override readonly name = 'AgentError';
  readonly code: AgentErrorCode;
  readonly sessionId: string | undefined;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(
    code: AgentErrorCode,
    message: string,
    options: { cause?: unknown; sessionId?: string; details?: Record<string, unknown> } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.sessionId = options.sessionId;
    this.details = options.details ?? {};
  }

  toJSON(): {
    name: string;
    code: AgentErrorCode;
    message: string;
    sessionId?: string;
    details: Readonly<Record<string, unknown>>;
  } {
    return {
      name: this.name,
      code: this.code,
      message: this.message,
      ...(this.sessionId === undefined ? {} : { sessionId: this.sessionId }),
      details: this.details,
    };
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
