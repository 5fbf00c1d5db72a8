import { piScenarios } from '@strand/harness-bed';
import { describeBedImport } from '../testing/bed-import.js';

/** The real pi (the pinned version) writes the sessions; see `describeBedImport`. */
describeBedImport('pi', piScenarios);
