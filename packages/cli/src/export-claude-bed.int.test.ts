import { describeExportBed } from './testing/export-bed.js';

/**
 * A Strand session exported with `strand export --to claude-code` and continued by the real
 * Claude Code (the bed's pin, offline against the bed's endpoint): see `describeExportBed`.
 */
describeExportBed('claude-code');
