import { geminiScenarios } from '@strand/harness-bed';
import { describeBedImport } from '../testing/bed-import.js';

/** The real Gemini CLI (the pinned version) writes the chats; see `describeBedImport`. */
describeBedImport('gemini', geminiScenarios);
