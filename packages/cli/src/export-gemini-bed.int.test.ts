import { describeExportBed } from './testing/export-bed.js';

/**
 * A Strand session exported with `strand export --to gemini` and continued by the real Gemini CLI
 * (`gemini --resume <session id>` in the session's folder, the bed's pin, offline against the
 * bed's endpoint): see `describeExportBed`.
 */
describeExportBed('gemini');
