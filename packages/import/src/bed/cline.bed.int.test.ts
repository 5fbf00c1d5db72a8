import { clineScenarios } from '@strand/harness-bed';
import { describeBedImport } from '../testing/bed-import.js';

/** The real Cline CLI (the pinned version) writes the sessions; see `describeBedImport`. */
describeBedImport('cline', clineScenarios);
