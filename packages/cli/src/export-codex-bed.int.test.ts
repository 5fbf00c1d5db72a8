import { describeExportBed, describeImportedCodexExportBed } from './testing/export-bed.js';

/**
 * A Strand session exported with `strand export --to codex` and continued by the real Codex CLI
 * (`codex exec resume <thread id>`, the bed's pin, offline against the bed's endpoint): see
 * `describeExportBed`.
 */
describeExportBed('codex');

/** A session the real Codex CLI made, imported, exported --to codex and resumed: see `describeImportedCodexExportBed`. */
describeImportedCodexExportBed('codex');
