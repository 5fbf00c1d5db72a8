import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  McpError,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { describeIssues } from '@strand/protocol';
import type { z } from 'zod';
import { StrandMcpError } from './errors.js';
import { errorResult } from './tool-result.js';

/**
 * Answers `tools/call` with the tools registered on `server` (`tools`, by name), as the SDK's own
 * handler does, except that arguments a tool's schema refuses get a tool error carrying the stable
 * code `CLI_MCP_ARGUMENTS_INVALID` (text and `structuredContent`, like every other tool error)
 * instead of the SDK's code-less message. The SDK offers no hook for that message, so its handler
 * is replaced — through the public `setRequestHandler`, after every tool is registered.
 */
export function typedArgumentErrors(server: McpServer, tools: ReadonlyMap<string, RegisteredTool>): void {
  server.server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = tools.get(request.params.name);
    if (tool === undefined || !tool.enabled)
      throw new McpError(ErrorCode.InvalidParams, `Tool ${request.params.name} not found`);
    // Every Strand tool has a zod input schema (the SDK keeps the raw shape as a zod object).
    const schema = tool.inputSchema as z.ZodType;
    const parsed = await schema.safeParseAsync(request.params.arguments ?? {});
    if (!parsed.success)
      return errorResult(
        new StrandMcpError(
          'CLI_MCP_ARGUMENTS_INVALID',
          `invalid arguments for ${request.params.name}: ${describeIssues(parsed.error, '(arguments)')}`,
        ),
      );
    const handler = tool.handler as (
      args: unknown,
      extra: unknown,
    ) => CallToolResult | Promise<CallToolResult>;
    return handler(parsed.data, extra);
  });
}
