import { spawnSubagent, type SpawnMode } from '../subagent-control.js';
import { AgentError } from '../errors.js';
import { argsObject, optionalBoolean, optionalString, requiredString } from './args.js';
import { renderChildTurn } from './render-child-turn.js';
import { defineTool, type Tool } from './tool.js';

export const SPAWN_AGENT_TOOL_NAME = 'spawn_agent';

interface SpawnArgs {
  readonly task: string;
  readonly mode: SpawnMode;
  readonly label?: string;
  readonly fork?: boolean;
}

function parseSpawnArgs(raw: unknown): SpawnArgs {
  const args = argsObject(SPAWN_AGENT_TOOL_NAME, raw, ['task', 'mode', 'label', 'fork']);
  const task = requiredString(SPAWN_AGENT_TOOL_NAME, args, 'task');
  const mode = args.mode ?? 'one-shot';
  if (mode !== 'one-shot' && mode !== 'continuable') {
    throw new AgentError(
      'AGENT_TOOL_ARGUMENTS_INVALID',
      `${SPAWN_AGENT_TOOL_NAME}: mode must be "one-shot" or "continuable"`,
    );
  }
  const label = optionalString(SPAWN_AGENT_TOOL_NAME, args, 'label');
  const fork = optionalBoolean(SPAWN_AGENT_TOOL_NAME, args, 'fork');
  return { task, mode, ...(label === undefined ? {} : { label }), ...(fork === undefined ? {} : { fork }) };
}

/**
 * `spawn_agent`: creates a child session of the calling session and runs its first turn with the
 * task (decided by `spawnSubagent`: depth limit, label rule, fork cut, descriptor first). The
 * result is the child's answer; a continuable child can then be continued with `send_message`.
 */
export const spawnAgentTool: Tool = defineTool<SpawnArgs>({
  name: SPAWN_AGENT_TOOL_NAME,
  description:
    'Start a subagent: a child session that works on a task and reports back. mode "one-shot" (default) answers once; ' +
    'mode "continuable" can be sent more messages later with send_message and needs a label. ' +
    'Set fork to true to give the child this conversation so far (its completed turns); otherwise it starts with only the task.',
  parameters: {
    type: 'object',
    properties: {
      task: { type: 'string', description: "The child's first message: what it should do." },
      mode: {
        type: 'string',
        enum: ['one-shot', 'continuable'],
        description: 'one-shot (default) or continuable.',
      },
      label: { type: 'string', description: 'A short name for the child; required when continuable.' },
      fork: {
        type: 'boolean',
        description: 'Seed the child with the completed turns of this conversation (default false).',
      },
    },
    required: ['task'],
    additionalProperties: false,
  },
  parse: parseSpawnArgs,
  async run(args, context) {
    const result = await spawnSubagent(
      {
        parent: context.agent.session,
        maxDepth: context.subagents.maxDepth,
        newSessionId: () => context.subagents.newSessionId(),
        now: () => context.subagents.now(),
        start: (plan) => context.subagents.start(plan),
      },
      {
        task: args.task,
        mode: args.mode,
        ...(args.label === undefined ? {} : { label: args.label }),
        ...(args.fork === undefined ? {} : { fork: args.fork }),
      },
      context.signal,
    );
    const name = result.label === undefined ? '' : ` "${result.label}"`;
    const seeded = result.forked ? `, forked with ${result.inheritedEventCount} inherited events` : '';
    return renderChildTurn(
      `Spawned ${result.mode} agent${name} (id ${result.childId}${seeded}).`,
      result.turn,
    );
  },
});
