import { Command } from 'commander';
import cliProgress from 'cli-progress';
import { openJsonlPersistence } from '@strand/persistence';
import { writeDemoCorpus } from './demo-corpus.js';
import { holdDataFolder } from '../data-lock/hold-for-command.js';
import { DEFAULT_DATA_DIR } from '../defaults.js';

/** `strand demo`: writes the demo corpus into an empty data folder. */
export function demoCommand(): Command {
  return new Command('demo')
    .description(
      'write the demo corpus (titled sessions, a subagent tree, a corrupt child, a 50k-event session)',
    )
    .option('--data <dir>', 'data folder', DEFAULT_DATA_DIR)
    .option('--json', 'print the result as JSON')
    .action(async (options: { data: string; json?: boolean }) => {
      const lock = await holdDataFolder(options.data, 'demo');
      let written: { sessions: number; events: number };
      try {
        written = await ensureDemoCorpus(options.data, options.json !== true);
      } finally {
        await lock.release();
      }
      if (options.json === true) console.log(JSON.stringify({ dataDir: options.data, ...written }));
      else if (written.sessions === 0)
        console.log(`${options.data} already holds sessions; nothing written.`);
      else console.log(`Wrote ${written.sessions} sessions (${written.events} events) to ${options.data}.`);
    });
}

/** Writes the demo corpus if `dataDir` holds no session; returns what was written. The caller holds the folder lock. */
export async function ensureDemoCorpus(
  dataDir: string,
  showProgress: boolean,
): Promise<{ sessions: number; events: number }> {
  const persistence = await openJsonlPersistence({ root: dataDir });
  try {
    if ((await persistence.list()).length > 0) return { sessions: 0, events: 0 };
    const bar =
      showProgress && process.stderr.isTTY
        ? new cliProgress.SingleBar(
            { format: 'demo corpus [{bar}] {value}/{total} sessions', stream: process.stderr },
            cliProgress.Presets.shades_classic,
          )
        : undefined;
    bar?.start(13, 0);
    const report = await writeDemoCorpus(persistence, (done) => bar?.update(done));
    bar?.stop();
    return report;
  } finally {
    await persistence.close();
  }
}
