import { kiloScenarios } from '@strand/harness-bed';
import { describeBedImport } from '../testing/bed-import.js';

/**
 * The real Kilo Code CLI (the pinned version) writes its `kilo.db`; see `describeBedImport`. As
 * with opencode, whose store kilo keeps, a compaction's summary request is real spend recorded on
 * the summary message.
 */
describeBedImport('kilo', kiloScenarios, { usageAlsoFrom: ['compaction'] });
