import { describeExportBed, describeImportedCodexExportBed } from './testing/export-bed.js';

/**
 * A Strand session exported with `strand export --to claude-code` and continued by the real
 * Claude Code (the bed's pin, offline against the bed's endpoint): see `describeExportBed`.
 */
describeExportBed('claude-code');

/** A session the real Codex CLI made, imported, exported --to claude-code and resumed: see `describeImportedCodexExportBed`. */
describeImportedCodexExportBed('claude-code');
