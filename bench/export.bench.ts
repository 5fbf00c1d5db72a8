/**
 * npm run bench:export [-- --events=50000]
 *
 * Exporting one session of the standard workload (50,000 events by default) to each target, in
 * process: the renderers of `@strand/export` over the document the host reads at one cut (the
 * read itself is `bench:query`'s). `exportMBps` is the logical JSON of the events (their
 * `JSON.stringify`, what the log holds decoded) per second of rendering, per target — Markdown,
 * HTML, Strand's JSON and a Claude Code, Codex and Gemini CLI transcript; `htmlMs50k` the HTML page's time. Median of
 * five runs after one warm-up. Last line: one JSON object.
 */
import {
  renderClaudeTranscript,
  renderCodexRollout,
  renderExport,
  renderGeminiChat,
  type ExportDocument,
} from '@strand/export';
import { EXPORT_FORMATS } from '@strand/protocol';
import { newSessionHeader, SessionId } from '@strand/session';
import { workloadEvents, workloadSession } from '@strand/workload';
import { line, medianMs, round } from './bench-util.js';

const EVENTS = Number(
  /^--events=(\d+)$/.exec(process.argv.find((a) => a.startsWith('--events=')) ?? '')?.[1] ?? 50_000,
);
const RUNS = 5;

const events = workloadEvents(workloadSession(0, EVENTS));
const document: ExportDocument = {
  header: newSessionHeader({ id: SessionId('bench-export'), createdAt: 0, cwd: '/work/bench/project' }),
  events,
  title: 'The export benchmark session',
};
const logicalMB = Buffer.byteLength(JSON.stringify(events)) / 1e6;
console.log(
  `bench:export — one workload session of ${events.length} events, ${round(logicalMB)} MB of logical JSON`,
);

const targets: Record<string, () => unknown> = {
  ...Object.fromEntries(EXPORT_FORMATS.map((format) => [format, () => renderExport(format, document)])),
  'claude-code': () => renderClaudeTranscript(document),
  codex: () => renderCodexRollout(document),
  gemini: () => renderGeminiChat(document),
};
const exportMBps: Record<string, number> = {};
const msByTarget: Record<string, number> = {};
for (const [target, run] of Object.entries(targets)) {
  await run(); // warm-up: the JIT, highlight.js's grammars
  const ms = await medianMs(RUNS, run);
  msByTarget[target] = round(ms, 1);
  exportMBps[target] = round(logicalMB / (ms / 1000), 1);
  line(`${target}: render (median of ${RUNS})`, `${round(ms, 1)} ms · ${exportMBps[target]} MB/s`);
}

console.log(
  JSON.stringify({
    events: events.length,
    logicalMB: round(logicalMB),
    exportMBps,
    htmlMs50k: msByTarget.html,
  }),
);
