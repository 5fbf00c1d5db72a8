import { defined } from '@strand/session';
import { toolParameters } from '@strand/subagent';
import { z } from 'zod';
import { spawnSubagent, type SpawnMode } from '../subagent-control.js';
import { nonBlank, parseToolArgs } from './args.js';
import { renderChildTurn } from './render-child-turn.js';
import { defineTool, type Tool } from './tool.js';

export const SPAWN_AGENT_TOOL_NAME = 'spawn_agent';

/** The arguments of `spawn_agent`: the one description, from which its JSON Schema is derived. */
const spawnArgsSchema = z.strictObject({
  task: nonBlank(z.string()).describe("The child's first message: what it should do."),
  mode: z
    .enum(['one-shot', 'continuable'], { message: 'must be "one-shot" or "continuable"' })
    .optional()
    .describe('one-shot (default) or continuable.'),
  label: z
    .string()
    .min(1, { message: 'must be a non-empty string when given' })
    .optional()
    .describe('A short name for the child; required when continuable.'),
  fork: z
    .boolean({ message: 'must be true or false' })
    .optional()
    .describe('Seed the child with the completed turns of this conversation (default false).'),
});

interface SpawnArgs {
  readonly task: string;
  readonly mode: SpawnMode;
  readonly label?: string;
  readonly fork?: boolean;
}

function parseSpawnArgs(raw: unknown): SpawnArgs {
  const { task, mode, label, fork } = parseToolArgs(SPAWN_AGENT_TOOL_NAME, spawnArgsSchema, raw);
  return {
    task,
    mode: mode ?? 'one-shot',
    ...defined({ label, fork }),
  };
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
  parameters: toolParameters(spawnArgsSchema) as Tool['parameters'],
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
        ...defined({ label: args.label, fork: args.fork }),
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
