import { stat } from 'node:fs/promises';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { Command } from 'commander';
import { routeConsoleToStderr } from '../console-to-stderr.js';
import { createStrandMcpServer, StrandMcpError } from '@strand/mcp';
import { usageTable } from '../commands/usage-command.js';
import { strandReader } from './reader.js';
import type { RemoteOptions } from '../remote.js';
import { targetOptions } from '../target-options.js';
import { VERSION } from '../version.js';

/**
 * `strand mcp`: the MCP server on stdin/stdout. Stdout carries protocol frames only, so before
 * anything runs every console method that writes stdout is pointed at stderr: a log line from
 * any package would otherwise corrupt the stream the harness parses.
 */
export function mcpCommand(): Command {
  return targetOptions(
    new Command('mcp').description(
      'serve Strand sessions to agents over MCP on stdio (read-only): search, list, read, list_agents',
    ),
  ).action(async (options: RemoteOptions) => {
    routeConsoleToStderr();
    if (options.url === undefined && options.store === undefined) await requireFolder(options.data);
    const server = createStrandMcpServer(strandReader(options), { version: VERSION, usageTable });
    const closed = new Promise<void>((resolve) => {
      server.server.onclose = resolve;
    });
    await server.connect(new StdioServerTransport());
    // A store URL may carry a password: never echo it.
    const what = options.url ?? (options.store === undefined ? options.data : 'the PostgreSQL store');
    console.error(`strand mcp: serving ${what} on stdio`);
    // The harness ends the server by closing stdin: the process ends once a call in flight has answered.
    process.stdin.once('end', () => void server.close());
    await closed;
  });
}

/**
 * Reading a folder that does not exist would create it (the embedded host makes its databases):
 * an MCP server registered with a mistyped path would then answer "No sessions." forever.
 */
async function requireFolder(dir: string): Promise<void> {
  const found = await stat(dir).catch(() => undefined);
  if (found?.isDirectory() !== true)
    throw new StrandMcpError(
      'CLI_MCP_DATA_FOLDER_MISSING',
      `CLI_MCP_DATA_FOLDER_MISSING: no data folder at ${dir} (pass --data with the folder strand serve or strand import uses)`,
    );
}
