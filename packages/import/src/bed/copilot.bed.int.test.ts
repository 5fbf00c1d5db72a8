import { copilotScenarios } from '@strand/harness-bed';
import { describeBedImport } from '../testing/bed-import.js';

/**
 * The real GitHub Copilot CLI (the pinned version) writes the session logs; see
 * `describeBedImport`. A `/compact`'s summary request is real spend the log records
 * (`compactionTokensUsed`), so its usage counts too.
 */
describeBedImport('copilot', copilotScenarios, { usageAlsoFrom: ['compaction'] });
