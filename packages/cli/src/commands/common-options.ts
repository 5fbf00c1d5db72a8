import { Option, type Command } from 'commander';
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
