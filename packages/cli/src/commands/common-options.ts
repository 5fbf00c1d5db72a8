import { InvalidArgumentError, Option, type Command } from 'commander';
import { KNOWN_HARNESSES, isHarnessName } from '@strand/session';
import { DEFAULT_DATA_DIR } from '../defaults.js';
import { parseHostUrl } from '../host-url.js';
import type { RemoteOptions } from '../remote.js';
import { storeOption } from '../store-option.js';

/** The options every read command shares: where to read (a folder, a store, a host) and `--json`. */
export interface Common extends RemoteOptions {
  json?: boolean;
}

export function common(command: Command): Command {
  return command
    .option('--data <dir>', 'data folder (an embedded host reads it)', DEFAULT_DATA_DIR)
    .addOption(storeOption())
    .addOption(
      new Option('--url <url>', 'a running host to ask instead (http://127.0.0.1:4400)').argParser(
        parseHostUrl,
      ),
    )
    .option('--token <token>', 'token for a host bound off loopback')
    .option('--json', 'print JSON');
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
