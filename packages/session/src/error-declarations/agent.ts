import { defineErrors } from '../define-errors.js';

/** The agent package's codes; `cause` keeps the underlying error. */
export const AGENT_ERRORS = defineErrors('agent', {
  /** `prompt` while a turn is running on that agent. */
  AGENT_BUSY: { meaning: 'The session already runs a turn.', number: -32050 },
  /** The session's model (its `modelSelection`, or a prompt's override) is not one this host runs — the configuration changed, or the session was imported; the turn is refused before it starts. */
  AGENT_MODEL_UNAVAILABLE: {
    meaning:
      "The session's model is not configured on this host (config changed, imported session); select another.",
    number: -32052,
  },
  /** The session's preset is not one this host knows (configuration changed); the turn is refused before it starts. */
  AGENT_PRESET_UNAVAILABLE: {
    meaning: "The session's preset is not configured on this host; select another.",
    number: -32053,
  },
  /** A prompt, promotion or activation of an `origin: 'subagent'` session: only its parent drives it. */
  AGENT_CHILD_SESSION: {
    meaning: 'A prompt, promotion or activation of a subagent child: only its parent drives it.',
  },
  /** The agent has detached (its session went cold); activate the session again. */
  AGENT_DETACHED: { meaning: 'The agent has detached (its session went cold); activate it again.' },
  /** `promote` got an observation that is not a retained cold cut backed by a prepared session. */
  AGENT_PROMOTION_UNPREPARED: { meaning: '`promote` got an observation that is not a retained cold cut.' },
  AGENT_PROMOTION_STALE: {
    meaning: 'The stored log changed after the observation handed to `promote` was read.',
  },
  /** The session is live in the store but attached by someone other than this controller. */
  AGENT_SESSION_LIVE_ELSEWHERE: { meaning: 'The session is live but attached by another controller.' },
  /** This host lost ownership of the session (its lease could not be renewed); the agent stopped (reported, not thrown). */
  AGENT_OWNERSHIP_LOST: { meaning: 'This host lost the session lease; the agent stopped.' },
  AGENT_SESSION_NOT_FOUND: { meaning: '`activate` of an id that is neither live nor stored.' },
  /** Creating, reading or publishing a session failed in the layers below. */
  AGENT_PERSISTENCE_FAILED: { meaning: 'Creating, reading or publishing a session failed below the agent.' },
  /** A model request failed (HTTP error, refused, unreadable stream); the turn ends `error`. */
  AGENT_MODEL_FAILED: { meaning: 'A model request failed; the turn ends `error`.' },
  /** A model stream broke off mid-way (disconnect, idle timeout); the turn ends `interrupted`. */
  AGENT_MODEL_INTERRUPTED: { meaning: 'A model stream broke off; the turn ends `interrupted`.' },
  /** The model's API key environment variable is unset or empty; the turn ends `error`. */
  AGENT_MODEL_NOT_CONFIGURED: { meaning: "The model's API key variable is unset; the turn ends `error`." },
  /** A turn used more model steps than `maxSteps`; it ends `error`. */
  AGENT_STEP_LIMIT: { meaning: 'A turn used more model steps than `maxSteps`.' },
  /** The model called a tool that is not registered (a `tool/result` error). */
  AGENT_TOOL_UNKNOWN: { meaning: 'The model called a tool that is not registered.' },
  /** The model called a registered tool its session's preset does not allow (a `tool/result` error; the tool did not run). */
  AGENT_TOOL_NOT_ALLOWED: { meaning: "The model called a tool its session's preset does not allow." },
  /** A tool's arguments are not JSON or do not match its schema (a `tool/result` error). */
  AGENT_TOOL_ARGUMENTS_INVALID: { meaning: "A tool's arguments do not match its schema." },
  /** A tool threw an error without a stable code of its own (a `tool/result` error). */
  AGENT_TOOL_FAILED: { meaning: 'A tool threw an error without a stable code of its own.' },
  /** A tool call the model issued was not run because the turn ended first (a `tool/result` error). */
  AGENT_TOOL_NOT_RUN: { meaning: 'A tool call was not run because the turn ended first.' },
  /** The turn was cancelled; it ends `aborted`. Also the code of a cancelled tool's result. */
  AGENT_CANCELLED: { meaning: 'The turn (or a tool) was cancelled.' },
  /** Invalid configuration (a bad base URL, a negative limit, a duplicate tool name). */
  AGENT_CONFIG_INVALID: { meaning: 'Invalid agent configuration (base URL, limit, duplicate tool).' },
  /** The controller was closed. */
  AGENT_CLOSED: { meaning: 'The agent controller was closed.' },
});
