import { SessionId } from '@strand/session';
import { toolParameters } from '@strand/subagent';
import { z } from 'zod';
import { continueSubagent } from '../subagent-control.js';
import { AgentError } from '../errors.js';
import { nonBlank, parseToolArgs } from './args.js';
import { renderChildTurn } from './render-child-turn.js';
import { defineTool, type Tool } from './tool.js';

export const SEND_MESSAGE_TOOL_NAME = 'send_message';

/** The arguments of `send_message`: the one description, from which its JSON Schema is derived. */
const sendArgsSchema = z.strictObject({
  agent_id: nonBlank(z.string()).describe('The id of the child agent.'),
  message: nonBlank(z.string()).describe('What to tell it.'),
});

interface SendArgs {
  readonly agentId: SessionId;
  readonly message: string;
}

function parseSendArgs(raw: unknown): SendArgs {
  const args = parseToolArgs(SEND_MESSAGE_TOOL_NAME, sendArgsSchema, raw);
  let agentId: SessionId;
  try {
    agentId = SessionId(args.agent_id);
  } catch (cause) {
    throw new AgentError(
      'AGENT_TOOL_ARGUMENTS_INVALID',
      `${SEND_MESSAGE_TOOL_NAME}: agent_id is not a session id`,
      { cause },
    );
  }
  return { agentId, message: args.message };
}

/**
 * `send_message`: continues one of the caller's continuable children with another message and
 * returns its answer. Only the child's exact direct parent may (the caller is the agent running
 * the tool, never an argument); a cold child is resumed from one observation and published
 * without a second read (`continueSubagent`).
 */
export const sendMessageTool: Tool = defineTool<SendArgs>({
  name: SEND_MESSAGE_TOOL_NAME,
  description:
    'Send another message to one of your continuable subagents (by the id spawn_agent or list_agents gave) and get its answer. ' +
    'Only works for your own direct children spawned with mode "continuable".',
  parameters: toolParameters(sendArgsSchema) as Tool['parameters'],
  parse: parseSendArgs,
  async run(args, context) {
    const result = await continueSubagent(
      {
        parentId: context.agent.id,
        observe: (id, options) => context.subagents.observe(id, options),
        resume: (observation) => context.subagents.resume(observation),
      },
      { childId: args.agentId, message: args.message },
      context.signal,
    );
    return renderChildTurn(`Agent "${result.label}" (id ${result.childId}) answered.`, result.turn);
  },
});
