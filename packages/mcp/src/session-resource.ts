import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { describeRow, titleOf } from './session-facts.js';
import type { StrandReader } from './reader.js';
import { codeOf } from './tool-result.js';
import { readTranscript } from './read-session.js';

export const SESSION_URI_PREFIX = 'strand://sessions/';
/** Resources listed at most: a client shows the list to a person; search finds the rest. */
const LISTED = 500;
/** MCP's "resource not found" (the specification's code for a resource read). */
const RESOURCE_NOT_FOUND = -32002;

/**
 * Every session as a resource `strand://sessions/<id>`, read as the text of its last 100 events
 * (the same rendering as read_session, ending with how to read further with the tool).
 */
export function registerSessionResources(server: McpServer, read: StrandReader): void {
  server.registerResource(
    'session',
    new ResourceTemplate(`${SESSION_URI_PREFIX}{id}`, {
      list: async () => {
        const { sessions } = await read((c) => c.call('session.list', { limit: LISTED }));
        return {
          resources: sessions.map((row) => {
            const title = titleOf(row);
            return {
              uri: sessionUri(row.id),
              name: typeof title === 'string' ? title : row.id,
              description: describeRow(row),
              mimeType: 'text/plain',
            };
          }),
        };
      },
    }),
    {
      title: 'Strand session',
      description: 'A session Strand holds, as its transcript text (the last 100 events).',
      mimeType: 'text/plain',
    },
    async (uri, variables) => {
      const id = decodeURIComponent(String(variables.id));
      try {
        const { text } = await readTranscript(read, id, { kind: 'last', last: 100 });
        return { contents: [{ uri: uri.href, mimeType: 'text/plain', text }] };
      } catch (error) {
        // A resource read fails as a protocol error: the Strand code leads the message and is in data.
        const code = codeOf(error);
        const message = error instanceof Error ? error.message : String(error);
        throw new McpError(code.endsWith('NOT_FOUND') ? RESOURCE_NOT_FOUND : -32603, `${code}: ${message}`, {
          code,
          uri: uri.href,
        });
      }
    },
  );
}

export function sessionUri(id: string): string {
  return `${SESSION_URI_PREFIX}${encodeURIComponent(id)}`;
}
