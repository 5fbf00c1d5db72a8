import { codexScenarios } from '@strand/harness-bed';
import { describeBedImport } from '../testing/bed-import.js';

/** The real Codex CLI (the pinned version) writes the rollouts; see `describeBedImport`. */
describeBedImport('codex', codexScenarios);
