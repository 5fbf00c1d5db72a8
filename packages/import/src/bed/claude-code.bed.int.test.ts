import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bedHarness, claudeScenarios, runScenario, type BedRecording } from '@strand/harness-bed';
import { importTranscripts } from '../run/import-transcripts.js';
import { expectConversation, importedConversation } from '../testing/bed-view.js';
import { readStore, workspace, type Workspace } from '../testing/fixture-dirs.js';
import type { ImportSummary } from '../types.js';

/**
 * The real Claude Code, run offline against the bed's scripted endpoint, writes its transcripts;
 * `importTranscripts` reads them. Each scenario's imported sessions must hold exactly what the
 * endpoint saw and answered (never a copy of the importer's own output), and no record the
 * pinned version writes may be called unknown.
 */
const bed = bedHarness('claude-code');
if (bed.kind === 'missing') console.log(`claude-code.bed.int.test.ts: skipped (${bed.reason})`);

interface Imported {
  readonly recording: BedRecording;
  readonly summary: ImportSummary;
  readonly data: Workspace;
}
const imported = new Map<string, Imported>();

beforeAll(async () => {
  if (bed.kind === 'missing') return;
  // Two harness processes at a time: each is a real CLI, and the machine has two cores.
  const queue = [...claudeScenarios];
  const worker = async (): Promise<void> => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      const recording = await runScenario(bed.installed, next);
      const data = workspace();
      const summary = await importTranscripts({
        harness: 'claude-code',
        sourceDir: recording.transcriptRoot,
        dataDir: data.data,
      });
      imported.set(next.name, { recording, summary, data });
    }
  };
  await Promise.all([worker(), worker()]);
}, 600_000);

afterAll(async () => {
  for (const { recording, data } of imported.values()) {
    data.dispose();
    await recording.workspace.remove();
  }
});

describe.skipIf(bed.kind === 'missing')(
  bed.kind === 'missing' ? bed.reason : `Claude Code ${bed.installed.pin.version}, run by the bed`,
  () => {
    it.each(claudeScenarios.map((s) => s.name))(
      '%s: the imported sessions hold what the endpoint saw',
      async (name) => {
        const { recording, data, summary } = imported.get(name)!;
        expect(summary.failed).toBe(0);
        const store = await readStore(data.data);
        const main = store.get(`claude-${recording.sessionId}`);
        expect(main, `sessions: ${[...store.keys()].join(', ')}`).toBeDefined();
        expect(main!.header.source).toEqual({ harness: 'claude-code', sourceId: recording.sessionId });
        expectConversation(await importedConversation(data.data, main!), recording.expected.main!);
        const children = [...store.values()].filter((s) => s.header.parentSession === main!.header.id);
        expect(children.map((c) => c.header.id).length).toBe(recording.expected.child === undefined ? 0 : 1);
        for (const child of children)
          expectConversation(await importedConversation(data.data, child), recording.expected.child!);
      },
    );

    it.each(claudeScenarios.map((s) => s.name))('%s: no record is called unknown', (name) => {
      const { summary } = imported.get(name)!;
      expect(summary.reports.filter((r) => r.kind === 'skipped-record' || r.kind === 'failed')).toEqual([]);
    });
  },
);
