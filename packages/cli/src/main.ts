/**
 * The `strand` command line. Until the host exists it offers `demo`: write a demo corpus with
 * the default (JSONL + zstd) backend and print a summary of it.
 */
import { runDemo } from './demo.js';

const [command = 'demo', ...rest] = process.argv.slice(2);

function option(name: string): string | undefined {
  const index = rest.indexOf(`--${name}`);
  return index >= 0 ? rest[index + 1] : undefined;
}

switch (command) {
  case 'demo':
    await runDemo({ dataDir: option('data') ?? '.strand-data' });
    break;
  case '--help':
  case 'help':
    console.log('usage: strand demo [--data <dir>]');
    break;
  default:
    console.error(`strand: unknown command ${JSON.stringify(command)} (try: strand help)`);
    process.exitCode = 2;
}
