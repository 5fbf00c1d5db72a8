import { Readable, Writable } from 'node:stream';
import { ndJsonStream } from '@agentclientprotocol/sdk';
import { Command } from 'commander';
import { routeConsoleToStderr } from '../console-to-stderr.js';
import { targetOptions } from '../target-options.js';
import { VERSION } from '../version.js';
import { openAcpTarget, type AcpTargetOptions } from './acp-target.js';
import { StrandAcpAgent } from './strand-acp-agent.js';

/**
 * `strand acp`: Strand's agent for editors, over the Agent Client Protocol on stdin/stdout.
 * Stdout carries protocol frames only, so before anything runs every console method that writes
 * stdout is pointed at stderr (a log line from any package would corrupt the stream the editor
 * parses). The editor ends the agent by closing stdin; the lock, if this process took it, is
 * released on the way out.
 */
export function acpCommand(): Command {
  return targetOptions(
    new Command('acp').description("Strand's agent for editors (Zed…): the Agent Client Protocol on stdio"),
  )
    .option(
      '--models <file>',
      'JSON file of OpenAI-compatible endpoints beside the scripted model (when no host holds the folder)',
    )
    .action(async (options: AcpTargetOptions) => {
      routeConsoleToStderr();
      const target = await openAcpTarget(options);
      const agent = new StrandAcpAgent(target.connection, VERSION, process.cwd());
      const stream = ndJsonStream(
        Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
        Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>,
      );
      const connection = agent.app().connect(stream);
      console.error(`strand acp: serving on stdio, ${target.description}`);
      const stop = (): void => connection.close();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      try {
        await connection.closed;
      } finally {
        agent.close();
        await target.close();
      }
    });
}
