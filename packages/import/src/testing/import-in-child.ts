/**
 * Runs `importTranscripts` in a fresh Node process started with tsx (argv[2]: the options as
 * JSON) and prints the summary as one JSON line. Tests use it to exercise worker lanes, which
 * need a process whose TypeScript loader a worker thread can register.
 */
import { importTranscripts } from '../run/import-transcripts.js';
import type { ImportOptions } from '../types.js';

const options = JSON.parse(process.argv[2]!) as ImportOptions;
console.log(JSON.stringify(await importTranscripts(options)));
