import { AgentError, stableCodeOf } from '../errors.js';
import type { ModelToolCall } from '../model/model.js';
import type { ToolContext, ToolOutput } from '../tools/tool.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import { abortPromise } from './step-stream.js';

/**
 * Runs one tool call and never throws: an unknown or disallowed tool, unreadable arguments or a failing tool
 * become an error result with a stable code, so the model can read what went wrong. A
 * cancellation that the tool does not honour promptly is not waited for.
 */
export async function executeTool(
  tools: ToolRegistry,
  call: ModelToolCall,
  context: ToolContext,
): Promise<ToolOutput> {
  const tool = tools.get(call.name);
  if (tool === undefined && tools.isWithheld(call.name))
    return failure(
      new AgentError(
        'AGENT_TOOL_NOT_ALLOWED',
        `the tool ${call.name} is not allowed by this session's preset`,
      ),
    );
  if (tool === undefined)
    return failure(new AgentError('AGENT_TOOL_UNKNOWN', `there is no tool named ${call.name}`));
  let args: unknown;
  try {
    args = tool.parse(call.arguments.trim().length === 0 ? {} : JSON.parse(call.arguments));
  } catch (error) {
    if (error instanceof SyntaxError)
      return failure(
        new AgentError(
          'AGENT_TOOL_ARGUMENTS_INVALID',
          `the arguments of ${call.name} are not JSON: ${error.message}`,
        ),
      );
    return failure(error);
  }
  const aborted = abortPromise(context.signal);
  try {
    const running = tool.run(args, context);
    // If cancellation wins the race the tool's own outcome is of no interest any more.
    running.catch(() => undefined);
    return await Promise.race([running, aborted.promise]);
  } catch (error) {
    return failure(error);
  } finally {
    aborted.dispose();
  }
}

function failure(error: unknown): ToolOutput {
  const code = stableCodeOf(error) ?? 'AGENT_TOOL_FAILED';
  const message = error instanceof Error ? error.message : String(error);
  return { content: message, isError: true, code };
}
