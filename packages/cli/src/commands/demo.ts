import { Command } from 'commander';
import { runDemo } from './demo-corpus.js';

export function demoCommand(): Command {
  return new Command('demo')
    .description('write a demo corpus (if the folder has none) and print a summary of it')
    .option('--data <dir>', 'data folder', '.strand-data')
    .action(async (options: { data: string }) => {
      await runDemo({ dataDir: options.data });
    });
}
