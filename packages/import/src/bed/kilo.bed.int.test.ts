import { kiloScenarios, type ConversationItem } from '@strand/harness-bed';
import { describeBedImport } from '../testing/bed-import.js';

/**
 * kilo compacts when the next prompt would overflow: it records the prompt the person typed, then
 * the compaction and its summary, then replays the prompt (a synthetic copy) for the model. The
 * endpoint first sees the prompt after the summary (the replay); the log keeps it where the person
 * typed it, before the compaction, and the replay as system context.
 */
function promptBeforeSummary(expected: readonly ConversationItem[]): readonly ConversationItem[] {
  const prompt = expected.findIndex((i) => i.kind === 'prompt' && i.text === 'Please go on.');
  const summary = expected.findIndex((i) => i.kind === 'reply' && i.text === 'The person said hello.');
  // Not that shape: compared as seen, so the test says what changed.
  if (prompt < 0 || summary < 0 || summary > prompt) return expected;
  return [
    ...expected.slice(0, summary),
    expected[prompt]!,
    ...expected.slice(summary, prompt),
    ...expected.slice(prompt + 1),
  ];
}

/**
 * The real Kilo Code CLI (the pinned version) writes its `kilo.db`; see `describeBedImport`. As
 * with opencode, whose store kilo keeps, a compaction's summary request is real spend recorded on
 * the summary message.
 */
describeBedImport('kilo', kiloScenarios, {
  usageAlsoFrom: ['compaction'],
  recordedOrder: { compaction: promptBeforeSummary },
});
