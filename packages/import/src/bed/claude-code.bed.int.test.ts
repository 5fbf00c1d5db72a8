import { claudeScenarios } from '@strand/harness-bed';
import { describeBedImport } from '../testing/bed-import.js';

/** The real Claude Code (the pinned version) writes the transcripts; see `describeBedImport`. */
describeBedImport('claude-code', claudeScenarios);
