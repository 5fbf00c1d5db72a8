import { opencodeScenarios } from '@strand/harness-bed';
import { describeBedImport } from '../testing/bed-import.js';

/**
 * The real opencode (the pinned version) writes its database; see `describeBedImport`. A
 * compaction's summary request is real spend opencode records on the summary message.
 */
describeBedImport('opencode', opencodeScenarios, { usageAlsoFrom: ['compaction'] });
