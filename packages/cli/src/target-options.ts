import { Option, type Command } from 'commander';
import { DEFAULT_DATA_DIR } from './defaults.js';
import { parseHostUrl } from './host-url.js';
import { storeOption } from './store-option.js';

/**
 * Where a command reads or works: `--data` (through the host holding the folder, else an
 * embedded host over it), `--store`, `--url` and `--token` (`RemoteOptions`). One definition for
 * the read commands, `mcp` and `acp`, so each names and checks them alike; `import`, `demo` and
 * `doctor` hold the folder themselves and take only what they write.
 */
export function targetOptions(command: Command): Command {
  return command
    .option('--data <dir>', 'data folder (read through the host holding it, if any)', DEFAULT_DATA_DIR)
    .addOption(storeOption())
    .addOption(
      new Option('--url <url>', 'a running host to ask instead (http://127.0.0.1:4400)').argParser(
        parseHostUrl,
      ),
    )
    .option('--token <token>', 'token for a host bound off loopback or requiring one');
}
