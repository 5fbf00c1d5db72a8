import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export function textResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }] };
}

/** The stable string code of a Strand error (host wire errors, client, data lock, runtime). */
export function codeOf(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string')
    return error.code;
  return 'CLI_MCP_READ_FAILED';
}

/**
 * A failed read as an MCP tool error: the agent sees the stable code first, then the message,
 * and `structuredContent` carries both for programs.
 */
export function errorResult(error: unknown): CallToolResult {
  const code = codeOf(error);
  const message = error instanceof Error ? error.message : String(error);
  return {
    isError: true,
    content: [{ type: 'text', text: `${code}: ${message}` }],
    structuredContent: { error: { code, message } },
  };
}

/** Runs a tool body; any failure becomes a tool error, never a protocol error or a crash. */
export async function toolCall(body: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await body();
  } catch (error) {
    return errorResult(error);
  }
}
