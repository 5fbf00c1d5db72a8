import {
  SessionError,
  type MessageContent,
  type Session,
  type SessionEvent,
  type SessionEventInput,
  type SessionSeq,
  defined,
} from '@strand/session';
import type { TurnOutcome } from '../agent.js';
import { AgentError, isAgentError } from '../errors.js';
import type { Model } from '../model/model.js';
import { routeData } from '../model/route-data.js';
import type { ToolContext } from '../tools/tool.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import { closingEvents, type TurnEnding } from './close-turn.js';
import { contextMessages } from './context-messages.js';
import { executeTool } from './execute-tool.js';
import { readStep, StepAccumulator } from './step-stream.js';
import { TurnState } from './turn-state.js';

/**
 * What one turn runs with, decided once when it starts (`TurnPlanner`) and used for every
 * step: a model or preset selected while the turn runs applies to the next turn.
 */
export interface TurnPlan {
  /** The tools offered to the model: the preset's allowed ones (a call to a withheld one is refused). */
  readonly tools: ToolRegistry;
  readonly instructions: string | undefined;
  /** The model every request of the turn goes to; `request/header` records its route per step. */
  readonly model: Model;
}

export interface TurnDeps extends TurnPlan {
  readonly session: Session;
  readonly maxSteps: number;
  readonly toolContext: (signal: AbortSignal) => ToolContext;
  /**
   * The running step's accumulated text, after every text delta. `step` is the seq of its
   * `step/start`, called only once that event is durable (transient: never appended).
   */
  readonly onDraft: (step: SessionSeq, text: string) => void;
  /** Where a failure to write the closing events goes (the log then stays open for crash repair). */
  readonly reportError: (error: unknown) => void;
  /**
   * Called once the last step's `step/end` is durable, before `turn/end completed` is appended: a
   * completed turn's own closing writes (the derived title) go here, inside the turn, so that
   * once a client sees `turn/end` the turn wrote all it will and the next prompt is accepted.
   * It must not reject (the controller reports its failures); a failed write makes the turn end
   * `error` like any other.
   */
  readonly beforeEnd?: (input: TurnInput) => Promise<void>;
}

export interface TurnInput {
  readonly content: MessageContent;
  readonly author: 'human' | 'agent' | 'system';
}

/** A turn under way: when its prompt became durable, and how it ended. Neither promise rejects. */
export interface RunningTurn {
  /**
   * The seq of the turn's `turn/start` once it and the `user/message` are durable; `undefined`
   * when the turn ended before they were stored (`outcome` then says why).
   */
  readonly started: Promise<SessionSeq | undefined>;
  readonly outcome: Promise<TurnOutcome>;
}

/**
 * One turn, appended through the session as it happens:
 * `turn/start`, `user/message`, then per model step `step/start`, `request/header` (the route the
 * request uses), `assistant/message` (with `usage`), a `tool/call` + `tool/result` per tool call,
 * `step/end`; the turn ends when a step calls no tool: `beforeEnd`'s writes (a first turn's
 * `session/title`), then `turn/end completed`. A cancelled turn ends
 * `aborted`, a model stream cut mid-way `interrupted`, any other failure `error` — always closed
 * by `closingEvents`. Returns at once with the turn under way; neither of its promises rejects:
 * `outcome` says how the turn ended.
 */
export function runTurn(deps: TurnDeps, input: TurnInput, signal: AbortSignal): RunningTurn {
  let markStarted!: (seq: SessionSeq | undefined) => void;
  const started = new Promise<SessionSeq | undefined>((resolve) => (markStarted = resolve));
  const outcome = turnBody(deps, input, signal, markStarted);
  // A turn that ended before its prompt was stored has no start to wait for (a settled promise
  // ignores this second resolve when it did start).
  void outcome.then((ended) => markStarted(ended.turnStartSeq));
  return { started, outcome };
}

async function turnBody(
  deps: TurnDeps,
  input: TurnInput,
  signal: AbortSignal,
  markStarted: (seq: SessionSeq) => void,
): Promise<TurnOutcome> {
  const { session } = deps;
  const state = new TurnState();
  let turnStartSeq: SessionSeq | undefined;
  const append = async (
    events: SessionEventInput | readonly SessionEventInput[],
  ): Promise<readonly SessionEvent[]> => {
    state.phase = 'append';
    return session.append(events);
  };
  try {
    const [start] = await session.append([
      { type: 'turn/start', data: {} },
      { type: 'user/message', data: { content: input.content, author: input.author } },
    ]);
    turnStartSeq = start?.seq;
    if (turnStartSeq !== undefined) markStarted(turnStartSeq);
    for (let step = 0; ; step++) {
      throwIfCancelled(signal);
      if (step >= deps.maxSteps)
        throw new AgentError('AGENT_STEP_LIMIT', `the turn used its ${deps.maxSteps} model steps`, {
          sessionId: session.id,
        });
      const [stepStart] = await append([
        { type: 'step/start', data: {} },
        { type: 'request/header', data: routeData(deps.model.route) },
      ]);
      // Only once appended: a refused batch left no step to close.
      state.stepOpen = true;
      const acc = new StepAccumulator();
      state.partial = acc;
      await readStep(
        deps.model,
        {
          messages: contextMessages(session.inMemoryTip().events, deps.instructions),
          tools: deps.tools.specs(),
          signal,
        },
        acc,
        // `append` resolved: the step/start is durable, so a draft may name it.
        stepStart === undefined ? () => undefined : () => deps.onDraft(stepStart.seq, acc.text),
      );
      await append({
        type: 'assistant/message',
        data: {
          content: acc.text,
          ...(acc.toolCalls.length === 0 ? {} : { toolCalls: acc.toolCalls }),
          ...defined({ usage: acc.usage }),
        },
      });
      state.partial = undefined;
      state.lastText = acc.text;
      state.outstanding = [...acc.toolCalls];
      for (const call of acc.toolCalls) {
        throwIfCancelled(signal);
        await append({
          type: 'tool/call',
          data: { callId: call.id, name: call.name, arguments: call.arguments },
        });
        state.started.add(call.id);
        state.phase = 'tool';
        const output = await executeTool(deps.tools, call, deps.toolContext(signal));
        await append({
          type: 'tool/result',
          data: {
            callId: call.id,
            content: output.content,
            ...(output.isError === true ? { isError: true } : {}),
            ...defined({ code: output.code }),
          },
        });
        state.answered(call.id);
      }
      await append({ type: 'step/end', data: {} });
      state.stepOpen = false;
      if (acc.toolCalls.length === 0) break;
    }
    await deps.beforeEnd?.(input);
    await append({ type: 'turn/end', data: { reason: 'completed' } });
    return {
      reason: 'completed',
      text: state.lastText,
      ...defined({ turnStartSeq }),
    };
  } catch (error) {
    const ending = classify(error, signal, state, session.id);
    const text = state.partial?.text ?? state.lastText;
    if (turnStartSeq !== undefined) {
      try {
        await session.append(closingEvents(state, ending));
      } catch (closeError) {
        // The session refuses appends after a failed write; crash repair closes the turn on the next load.
        deps.reportError(closeError);
      }
    }
    return {
      reason: ending.reason,
      text,
      error: ending.error,
      ...defined({ turnStartSeq }),
    };
  }
}

function throwIfCancelled(signal: AbortSignal): void {
  if (signal.aborted)
    throw new AgentError('AGENT_CANCELLED', 'the turn was cancelled', { cause: signal.reason });
}

function classify(error: unknown, signal: AbortSignal, state: TurnState, sessionId: string): TurnEnding {
  // A refused append is the cause even when the turn was aborted meanwhile: a failed durable write
  // stops the session and cancels its turn, and the caller must learn the write failed.
  if (error instanceof SessionError) return persistenceFailed(error, sessionId);
  if (signal.aborted) {
    const cancelled = isAgentError(error, 'AGENT_CANCELLED')
      ? error
      : new AgentError('AGENT_CANCELLED', 'the turn was cancelled', { cause: signal.reason, sessionId });
    return { reason: 'aborted', error: cancelled };
  }
  if (isAgentError(error))
    return { reason: error.code === 'AGENT_MODEL_INTERRUPTED' ? 'interrupted' : 'error', error };
  if (state.phase === 'append') return persistenceFailed(error, sessionId);
  const message = error instanceof Error ? error.message : String(error);
  return {
    reason: 'error',
    error: new AgentError('AGENT_MODEL_FAILED', `the model failed: ${message}`, { cause: error, sessionId }),
  };
}

function persistenceFailed(cause: unknown, sessionId: string): TurnEnding {
  return {
    reason: 'error',
    error: new AgentError('AGENT_PERSISTENCE_FAILED', `appending to session ${sessionId} failed`, {
      cause,
      sessionId,
    }),
  };
}
