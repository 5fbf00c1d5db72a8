/**
 * The `strand` command line: one commander program, one module per command under `commands/`.
 * Errors print one clear line; exit codes: 0 ok, 1 failure, 2 usage.
 */
import { Command, CommanderError } from 'commander';
import { demoCommand } from './commands/demo.js';
import { importCommand } from './commands/import.js';
import { serveCommand } from './commands/serve.js';
import { doctorCommand } from './commands/doctor.js';
import { mcpCommand } from './mcp/mcp-command.js';
import {
  agentsCommand,
  followCommand,
  listCommand,
  searchCommand,
  showCommand,
} from './commands/read-commands.js';

const program = new Command('strand')
  .description('Strand: the session layer for AI agent harnesses')
  .showHelpAfterError()
  .exitOverride();

program.addCommand(serveCommand());
for (const command of [listCommand(), showCommand(), followCommand(), agentsCommand(), searchCommand()])
  program.addCommand(command);
program.addCommand(demoCommand());
program.addCommand(doctorCommand());
program.addCommand(importCommand());
program.addCommand(mcpCommand());
// Usage errors of every command throw instead of exiting, so they map to exit code 2 below.
for (const command of program.commands) command.exitOverride().showHelpAfterError();

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    process.exitCode = error.exitCode === 0 ? 0 : 2;
  } else {
    console.error(`strand: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
