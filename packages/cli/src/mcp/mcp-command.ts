import { stat } from 'node:fs/promises';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { Command } from 'commander';
import { routeConsoleToStderr } from '../console-to-stderr.js';
import { DEFAULT_DATA_DIR } from '../defaults.js';
import { storeOption } from '../store-option.js';
import { StrandMcpError } from './errors.js';
import { strandReader } from './reader.js';
import { createStrandMcpServer } from './server.js';
import type { RemoteOptions } from '../remote.js';

const VERSION = '0.1.0';

/**
 * `strand mcp`: the MCP server on stdin/stdout. Stdout carries protocol frames only, so before
 * anything runs every console method that writes stdout is pointed at stderr: a log line from
 * any package would otherwise corrupt the stream the harness parses.
 */
export function mcpCommand(): Command {
  return new Command('mcp')
    .description(
      'serve Strand sessions to agents over MCP on stdio (read-only): search, list, read, list_agents',
    )
    .option('--data <dir>', 'data folder (read through its host when one holds it)', DEFAULT_DATA_DIR)
    .addOption(storeOption())
    .option('--url <url>', 'a running host to read from instead (http://127.0.0.1:4400)')
    .option('--token <token>', 'token for a host bound off loopback')
    .action(async (options: RemoteOptions) => {
      routeConsoleToStderr();
      if (options.url === undefined && options.store === undefined) await requireFolder(options.data);
      const server = createStrandMcpServer(strandReader(options), VERSION);
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
