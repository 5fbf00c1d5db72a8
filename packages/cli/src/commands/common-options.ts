import { InvalidArgumentError, Option, type Command } from 'commander';
import { KNOWN_HARNESSES, isHarnessName } from '@strand/session';
import type { RemoteOptions } from '../remote.js';
import { targetOptions } from '../target-options.js';

/** The options every read command shares: where to read (`targetOptions`) and `--json`. */
export interface Common extends RemoteOptions {
  json?: boolean;
}

/** A read command: `targetOptions` and `--json`. */
export function common(command: Command): Command {
  return targetOptions(command).option('--json', 'print JSON');
}

/**
 * `--harness <name>`: any harness name, since a host may hold sessions a newer importer wrote;
 * the help lists the ones this build knows. A name of the wrong shape is a usage error (exit 2).
 */
export function harnessOption(): Option {
  return new Option(
    '--harness <name>',
    `only sessions from this harness (${KNOWN_HARNESSES.join(', ')}, or another's name; strand: Strand's own)`,
  ).argParser((value: string) => {
    if (!isHarnessName(value))
      throw new InvalidArgumentError('expected a harness name (lowercase letters, digits and hyphens).');
    return value;
  });
}
