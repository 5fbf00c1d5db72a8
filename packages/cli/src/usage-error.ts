import { CommanderError } from 'commander';

/**
 * A usage error found once the options parsed (a value that needs another option, a folder that
 * is not there): one `strand:` line, like commander's own, and exit 2 (`main.ts` maps a
 * `CommanderError` to it without printing again). `code` is commander's (`strand.<command>.<what>`).
 */
export function failUsage(message: string, code: string): never {
  process.stderr.write(`strand: ${message}\n`);
  throw new CommanderError(2, code, message);
}
