import { qwenScenarios } from '@strand/harness-bed';
import { describeBedImport } from '../testing/bed-import.js';

/** The real Qwen Code (the pinned version) writes the transcripts; see `describeBedImport`. */
describeBedImport('qwen', qwenScenarios);
