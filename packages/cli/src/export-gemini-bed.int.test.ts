import { describeExportBed, describeImportedCodexExportBed } from './testing/export-bed.js';

/**
 * A Strand session exported with `strand export --to gemini` and continued by the real Gemini CLI
 * (`gemini --resume <session id>` in the session's folder, the bed's pin, offline against the
 * bed's endpoint): see `describeExportBed`.
 */
describeExportBed('gemini');

/** A session the real Codex CLI made, imported, exported --to gemini and resumed: see `describeImportedCodexExportBed`. */
describeImportedCodexExportBed('gemini');
