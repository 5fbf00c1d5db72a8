import { codexScenarios } from '@strand/harness-bed';
import { describeBedImport } from '../testing/bed-import.js';

/**
 * The real Codex CLI (the pinned version) writes the rollouts; see `describeBedImport`. Codex
 * counts its compaction request in the rollout's running token total: real spend, so Strand
 * counts it too.
 */
describeBedImport('codex', codexScenarios, { usageAlsoFrom: ['compaction'] });
