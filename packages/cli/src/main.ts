/**
 * The `strand` command line: one commander program, one module per command under `commands/`,
 * each loaded only when it runs (`command-list.ts`). Errors print one clear line; exit codes:
 * 0 ok, 1 failure, 2 usage.
 */
import { Command, CommanderError } from 'commander';
import { exitQuietlyOnClosedPipe } from './closed-pipe.js';
import { COMMANDS, type CommandEntry } from './command-list.js';
import { failureLine, usageLine } from './error-line.js';

exitQuietlyOnClosedPipe(process.stdout);
exitQuietlyOnClosedPipe(process.stderr);

const program = new Command('strand')
  .description('Strand: the session layer for AI agent harnesses')
  .exitOverride()
  .configureOutput({ outputError: (text, write) => write(usageLine(text)) });

const wanted = requestedCommand(process.argv.slice(2));
for (const entry of COMMANDS) program.addCommand(entry.name === wanted ? await entry.load() : stub(entry));
// Usage errors of every command throw instead of exiting, so they map to exit code 2 below,
// and print one line (commander's message; `--help` has the rest).
for (const command of program.commands)
  command.exitOverride().configureOutput({ outputError: (text, write) => write(usageLine(text)) });

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    process.exitCode = error.exitCode === 0 ? 0 : 2;
  } else {
    process.stderr.write(failureLine(error));
    process.exitCode = 1;
  }
}

/** The command the arguments name (`strand list …`, `strand help list`), if any. */
function requestedCommand(args: readonly string[]): string | undefined {
  const [first, second] = args.filter((arg) => !arg.startsWith('-'));
  return first === 'help' ? second : first;
}

/** A stand-in that only lists the command in `strand --help`. */
function stub(entry: CommandEntry): Command {
  const command = new Command(entry.name).description(entry.description);
  return entry.args === undefined ? command : command.arguments(entry.args);
}
