import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredLog } from '@strand/persistence';
import {
  DEFAULT_USAGE,
  bedHarness,
  runScenario,
  type BedHarness,
  type BedRecording,
  type ConversationItem,
  type ScenarioDefinition,
} from '@strand/harness-bed';
import { importTranscripts } from '../run/import-transcripts.js';
import type { ImportSummary } from '../types.js';
import { expectConversation, importedConversation } from './bed-view.js';
import { readStore, workspace, type Workspace } from './fixture-dirs.js';

interface Imported {
  readonly recording: BedRecording;
  readonly summary: ImportSummary;
  readonly data: Workspace;
  readonly store: Map<string, StoredLog>;
}

/**
 * The importer suite over what a real harness wrote: the pinned CLI runs every scenario offline
 * against the bed's scripted endpoint (two processes at a time: each is a real CLI on a 2-core
 * machine), `importTranscripts` reads the transcripts, and each scenario's sessions must hold
 * exactly the conversation the endpoint saw and answered — the session the person talked to and,
 * where the scenario has one, its subagent child — with no record called unknown. Skipped, saying
 * why, when the pinned harness is not installed (`npm run bed:install`).
 */
export function describeBedImport(
  harness: BedHarness,
  scenarios: readonly ScenarioDefinition[],
  options: {
    /** Side-request threads whose usage the harness writes into the transcript (real spend). */
    readonly usageAlsoFrom?: readonly string[];
    /**
     * Per scenario, the main thread's expected conversation in the order the harness records it,
     * where that differs from the order the endpoint first saw it (each use says why).
     */
    readonly recordedOrder?: Readonly<
      Partial<Record<string, (expected: readonly ConversationItem[]) => readonly ConversationItem[]>>
    >;
  } = {},
): void {
  const bed = bedHarness(harness);
  if (bed.kind === 'missing') console.log(`${harness} bed suite: skipped (${bed.reason})`);
  const imported = new Map<string, Imported>();

  beforeAll(async () => {
    if (bed.kind === 'missing') return;
    const queue = [...scenarios];
    const worker = async (): Promise<void> => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
        const recording = await runScenario(bed.installed, next);
        const data = workspace();
        const summary = await importTranscripts({
          harness,
          sourceDir: recording.transcriptRoot,
          dataDir: data.data,
        });
        imported.set(next.name, { recording, summary, data, store: await readStore(data.data) });
      }
    };
    await Promise.all([worker(), worker()]);
  }, 900_000);

  afterAll(async () => {
    for (const { recording, data } of imported.values()) {
      data.dispose();
      await recording.workspace.remove();
    }
  });

  const names = scenarios.map((s) => s.name);
  describe.skipIf(bed.kind === 'missing')(
    bed.kind === 'missing' ? bed.reason : `${harness} ${bed.installed.pin.version}, run by the bed`,
    () => {
      it.each(names)('%s: the imported sessions hold what the endpoint saw', async (name) => {
        const { recording, data, summary, store } = imported.get(name)!;
        expect(summary.failed).toBe(0);
        const mains = [...store.values()].filter(
          (s) => s.header.parentSession === undefined && s.header.source?.sourceId === recording.sessionId,
        );
        expect(
          mains.map((s) => s.header.id),
          `sessions: ${[...store.keys()].join(', ')}`,
        ).toHaveLength(1);
        const main = mains[0]!;
        expect(main.header.source?.harness).toBe(harness);
        const order = options.recordedOrder?.[name] ?? ((expected) => expected);
        expectConversation(await importedConversation(data.data, main), order(recording.expected.main!));
        const children = [...store.values()].filter((s) => s.header.parentSession === main.header.id);
        expect(children).toHaveLength(recording.expected.child === undefined ? 0 : 1);
        for (const child of children) {
          expect(child.header.origin).toBe('subagent');
          expect(child.events[0]?.type).toBe('subagent/descriptor');
          expectConversation(await importedConversation(data.data, child), recording.expected.child!);
        }
      });

      it.each(names)('%s: the usage is what the endpoint reported, each response counted once', (name) => {
        const { recording, store } = imported.get(name)!;
        // The conversation threads, and the side requests whose usage the harness records; a held
        // answer was cut before its usage was sent (an interrupted response), so nothing counts it.
        const threads = new Set([...Object.keys(recording.expected), ...(options.usageAlsoFrom ?? [])]);
        const reported = recording.exchanges
          .filter((exchange) => threads.has(exchange.thread) && exchange.answer.hold !== true)
          .map((exchange) => exchange.answer.usage ?? DEFAULT_USAGE)
          .reduce<Record<string, number>>(
            (sum, u) =>
              addKinds(sum, {
                input: u.inputTokens,
                output: u.outputTokens,
                cacheCreation: u.cacheCreationTokens ?? 0,
                cacheRead: u.cacheReadTokens ?? 0,
                reasoning: u.reasoningTokens ?? 0,
              }),
            {},
          );
        // Every session the import wrote, each counting only its own events (a seeded copy or fork
        // starts with its parent's, which the parent counts): the corpus total the usage views add.
        const logged = [...store.values()]
          .flatMap((s) => s.events.slice(s.inheritedEventCount))
          .filter((e) => e.type === 'assistant/message')
          .map((e) => (e.data as { usage?: Record<string, number> }).usage ?? {})
          .reduce<Record<string, number>>(addKinds, {});
        expect(logged).toEqual(reported);
      });

      it.each(names)('%s: no record is called unknown, nothing fails', (name) => {
        const { summary } = imported.get(name)!;
        expect(summary.reports.filter((r) => r.kind === 'skipped-record' || r.kind === 'failed')).toEqual([]);
      });
    },
  );
}

/** Sums by kind, leaving out kinds that stay 0 (a log leaves them out). */
function addKinds(sum: Record<string, number>, add: Record<string, number>): Record<string, number> {
  const next = { ...sum };
  for (const [kind, n] of Object.entries(add)) if (n !== 0) next[kind] = (next[kind] ?? 0) + n;
  return next;
}
