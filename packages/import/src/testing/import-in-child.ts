/**
 * Runs `importTranscripts` in a fresh Node process started with tsx (argv[2]: the options as
 * JSON) and prints the summary as one JSON line; a failed run prints its error on stderr and exits
 * with code 1. Tests use it to exercise worker lanes, which need a process whose TypeScript loader
 * a worker thread can register.
 */
import { importTranscripts } from '../run/import-transcripts.js';
import type { ImportOptions } from '../types.js';

const options = JSON.parse(process.argv[2]!) as ImportOptions;
try {
  console.log(JSON.stringify(await importTranscripts(options)));
} catch (error) {
  // Said, and the process left to end by itself: anything the run left running (a worker lane)
  // would keep it alive.
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
}
