/**
 * npm run bench:import [-- --mb=200] [--harness=aider,pi] [--source] [--work=<folder>]
 *
 * Import throughput on a generated Claude Code corpus (~200 MB of JSONL transcripts, some with
 * `subagents/` children and `.meta.json`), then a re-import with nothing changed. Each import is
 * `strand import`'s own work (`importOnce`: worker lanes, then every session's projection cache
 * rows, folded in the lane that wrote it) from the CLI bundle, built at the start as an install
 * builds it (into node_modules/.cache), in a plain `node` process of its own per corpus
 * (`import-run.ts`); `--source` runs the TypeScript sources through tsx instead. The corpus is
 * deterministic (seeded PRNG). Target: ≥ 40 MB/s of source; re-import ≤ 5% of the first import's
 * time. The last line is one JSON object with every figure.
 *
 * Every other harness with a generator here is measured the same way on a corpus of the same
 * size (`importMBpsByHarness`, `reimportRatioByHarness` in the last line): codex (dated rollout
 * folders: `codex-corpus.ts`), pi (`pi-corpus.ts`),
 * aider (a tree of projects, each with its `.aider.chat.history.md`: `aider-corpus.ts`), opencode
 * (one SQLite database: `opencode-corpus.ts`), qwen (`qwen-corpus.ts`), crush (a tree of projects,
 * each with its `.crush/crush.db`: `crush-corpus.ts`), copilot (`copilot-corpus.ts`), goose (one SQLite
 * `sessions.db`: `goose-corpus.ts`), cursor (one `state.vscdb`: `cursor-corpus.ts`), openhands (a
 * folder per conversation, a file per event: `openhands-corpus.ts`), kilo (opencode's store as
 * `kilo.db`, the same generator), cline (`cline-corpus.ts`; roo: the same folders with Roo's
 * `history_item.json`), gemini (JSONL chats: `gemini-corpus.ts`).
 * `--harness=pi` (a comma list) measures only those; `claude-code` is the headline figure.
 * Issue 39 asks ≥ 50 MB a harness (`--mb=50` at least); per-file-per-event stores (openhands) are
 * then ≥ 1,000 sessions. Corpora and data folders are made under a fresh folder in `--work` (the
 * OS's temp folder by default) and all deleted when the run ends, not one by one as it goes:
 * deleting thousands of files just before the next harness's import made that import pay for
 * them — on ext4 without a journal (this project's VM), every new file's inode allocation skips
 * the inodes freed in the last minutes, one by one — which is not the import's cost. Each corpus
 * is written to disk (`sync`) before its imports, for the same reason: its writeback is not their
 * work. The disk holds every corpus at once: about 1 GB at `--mb=50` for every harness, 4 GB at the
 * default 200.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ImportOptions } from '@strand/import';
import type { MeasuredImport } from './import-run.js';
import { mulberry32, type Rng } from '@strand/workload';
import { line, round, timeIt } from './bench-util.js';
import { generateAiderCorpus } from './aider-corpus.js';
import { generateCodexCorpus } from './codex-corpus.js';
import { generateCrushCorpus } from './crush-corpus.js';
import { generateGeminiCorpus } from './gemini-corpus.js';
import { generateOpencodeCorpus } from './opencode-corpus.js';
import { generatePiCorpus } from './pi-corpus.js';
import { generateQwenCorpus } from './qwen-corpus.js';
import { generateCopilotCorpus } from './copilot-corpus.js';
import { generateGooseCorpus } from './goose-corpus.js';
import { generateCursorCorpus } from './cursor-corpus.js';
import { generateOpenhandsCorpus } from './openhands-corpus.js';
import { generateClineCorpus } from './cline-corpus.js';
import { hex, uuid, words } from './corpus-text.js';

const targetMB = Number(
  /^--mb=(\d+)$/.exec(process.argv.find((a) => a.startsWith('--mb=')) ?? '')?.[1] ?? 200,
);

const onlyHarnesses = /^--harness=(.+)$/.exec(
  process.argv.find((a) => a.startsWith('--harness=')) ?? '',
)?.[1];
const measured = (harness: string): boolean =>
  onlyHarnesses === undefined || onlyHarnesses.split(',').includes(harness);

/** The other harnesses' generators: each writes a corpus of about `bytes` under a folder. */
const OTHER_HARNESSES = [
  { harness: 'codex', generate: generateCodexCorpus },
  { harness: 'pi', generate: generatePiCorpus },
  { harness: 'aider', generate: generateAiderCorpus },
  { harness: 'qwen', generate: generateQwenCorpus },
  { harness: 'gemini', generate: generateGeminiCorpus },
  // A database, not a file per session: its rate is of the database's bytes.
  {
    harness: 'opencode',
    generate: (root: string, bytes: number) =>
      generateOpencodeCorpus(root, bytes, mulberry32(20_261_204), words),
  },
  // Databases too, one per project of a tree: the rate is of the databases' bytes.
  {
    harness: 'crush',
    generate: (root: string, bytes: number) =>
      generateCrushCorpus(root, bytes, mulberry32(20_261_205), words),
  },
  { harness: 'copilot', generate: generateCopilotCorpus },
  {
    harness: 'goose',
    generate: (root: string, bytes: number) =>
      generateGooseCorpus(root, bytes, mulberry32(20_261_205), words),
  },
  {
    harness: 'openhands',
    generate: (root: string, bytes: number) =>
      generateOpenhandsCorpus(root, bytes, mulberry32(20_261_206), words),
  },
  // Kilo Code's CLI keeps opencode's store: the same rows, in `kilo.db`, read by its flavour.
  {
    harness: 'kilo',
    generate: (root: string, bytes: number) =>
      generateOpencodeCorpus(root, bytes, mulberry32(20_261_205), words, {
        file: 'kilo.db',
        version: '7.7.7',
      }),
  },
  // Task folders: the rate is of the API histories' bytes (the UI messages are read beside them).
  { harness: 'cline', generate: (root: string, bytes: number) => generateClineCorpus(root, bytes) },
  // Roo Code keeps Cline's task folders, with its own history item beside them.
  { harness: 'roo', generate: (root: string, bytes: number) => generateClineCorpus(root, bytes, 'roo') },
  // One key-value database (the editor's `state.vscdb`): the rate is of the database's bytes.
  {
    harness: 'cursor',
    generate: (root: string, bytes: number) =>
      generateCursorCorpus(root, bytes, mulberry32(20_261_207), words),
  },
] as const;

/** A source file: code-ish lines, so JSON escaping costs what it costs in real logs. */
function codeFile(rng: Rng, lines: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines; i++)
    out.push(`const ${words(rng, 1)}_${i} = "${words(rng, 6)}"; // ${words(rng, 4)}`);
  return out;
}

interface Writer {
  readonly lines: string[];
  time: number;
  parent: string | null;
}

/** Appends the lines of one turn: prompt, a few tool rounds (streamed chunks), a final answer. */
function turn(
  rng: Rng,
  w: Writer,
  base: Record<string, unknown>,
  promptText: string,
  agentFile: boolean,
): void {
  const step = (): string => new Date((w.time += 500 + Math.floor(rng() * 4000))).toISOString();
  const push = (record: Record<string, unknown>): void => {
    const id = uuid(rng);
    w.lines.push(
      JSON.stringify({
        parentUuid: w.parent,
        isSidechain: agentFile,
        ...base,
        ...record,
        uuid: id,
        timestamp: step(),
      }),
    );
    w.parent = id;
  };
  push({ type: 'user', message: { role: 'user', content: promptText } });
  const rounds = 1 + Math.floor(rng() * 6);
  for (let r = 0; r < rounds; r++) {
    const msgId = `msg_${hex(rng, 24)}`;
    const usage = {
      input_tokens: 3,
      cache_creation_input_tokens: Math.floor(rng() * 2000),
      cache_read_input_tokens: Math.floor(rng() * 40000),
      output_tokens: 1 + Math.floor(rng() * 400),
    };
    const callId = `toolu_${hex(rng, 24)}`;
    push({
      type: 'assistant',
      requestId: `req_${hex(rng, 24)}`,
      message: {
        id: msgId,
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [{ type: 'text', text: words(rng, 20 + Math.floor(rng() * 60)) }],
        stop_reason: null,
        usage,
      },
    });
    push({
      type: 'assistant',
      requestId: `req_${hex(rng, 24)}`,
      message: {
        id: msgId,
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [
          {
            type: 'tool_use',
            id: callId,
            name: 'Read',
            input: { file_path: `/home/user/src/${words(rng, 1)}.ts` },
          },
        ],
        stop_reason: null,
        usage,
      },
    });
    // As Claude Code writes a Read result: the model sees `cat -n` style lines; the side object
    // `toolUseResult` repeats the raw file (real transcripts repeat outputs there, see
    // docs/transcript-formats.md), which the importer parses and drops.
    const file = codeFile(rng, 20 + Math.floor(rng() * 400));
    const numbered = file.map((l, i) => `${String(i + 1).padStart(6)}→${l}`).join('\n');
    push({
      type: 'user',
      message: { role: 'user', content: [{ tool_use_id: callId, type: 'tool_result', content: numbered }] },
      toolUseResult: {
        type: 'text',
        file: {
          filePath: '/home/user/src/x.ts',
          content: file.join('\n'),
          numLines: file.length,
          startLine: 1,
          totalLines: file.length,
        },
      },
    });
  }
  push({
    type: 'assistant',
    message: {
      id: `msg_${hex(rng, 24)}`,
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [{ type: 'text', text: words(rng, 80) }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 3, output_tokens: 200 },
    },
  });
  if (!agentFile)
    w.lines.push(
      JSON.stringify({
        type: 'system',
        subtype: 'turn_duration',
        durationMs: 12000,
        ...base,
        uuid: uuid(rng),
        parentUuid: w.parent,
        timestamp: step(),
      }),
    );
}

/** Writes the corpus; returns its size in bytes and the number of transcript files. */
function generateCorpus(root: string, bytesTarget: number): { bytes: number; files: number } {
  const rng = mulberry32(20_260_501);
  let bytes = 0;
  let files = 0;
  let project = 0;
  while (bytes < bytesTarget) {
    const dir = path.join(root, `-home-user-project-${project++}`);
    mkdirSync(dir, { recursive: true });
    const sessionsInProject = 3 + Math.floor(rng() * 10);
    for (let s = 0; s < sessionsInProject && bytes < bytesTarget; s++) {
      const sessionId = uuid(rng);
      const base = {
        userType: 'external',
        cwd: `/home/user/project-${project}`,
        sessionId,
        version: '2.1.88',
        gitBranch: 'main',
      };
      const w: Writer = { lines: [], time: Date.UTC(2026, 0, 1) + Math.floor(rng() * 1e10), parent: null };
      w.lines.push(
        JSON.stringify({
          type: 'queue-operation',
          operation: 'dequeue',
          timestamp: new Date(w.time).toISOString(),
          sessionId,
        }),
      );
      // Session sizes vary from a few KB to several MB, like real history.
      const turns = 1 + Math.floor(rng() * rng() * 60);
      for (let t = 0; t < turns; t++) turn(rng, w, base, words(rng, 8 + Math.floor(rng() * 30)), false);
      if (rng() < 0.3)
        w.lines.push(JSON.stringify({ type: 'custom-title', customTitle: words(rng, 5), sessionId }));
      const text = w.lines.join('\n') + '\n';
      writeFileSync(path.join(dir, `${sessionId}.jsonl`), text);
      bytes += Buffer.byteLength(text);
      files++;
      // About a quarter of the sessions delegated to subagents (2.1 layout with meta files).
      const agents = rng() < 0.25 ? 1 + Math.floor(rng() * 3) : 0;
      for (let a = 0; a < agents; a++) {
        const agentId = `a${hex(rng, 16)}`;
        const sub = path.join(dir, sessionId, 'subagents');
        mkdirSync(sub, { recursive: true });
        const aw: Writer = { lines: [], time: w.time, parent: null };
        const agentBase = { ...base, agentId };
        const agentTurns = 1 + Math.floor(rng() * 3);
        for (let t = 0; t < agentTurns; t++) turn(rng, aw, agentBase, words(rng, 40), true);
        const agentText = aw.lines.join('\n') + '\n';
        writeFileSync(path.join(sub, `agent-${agentId}.jsonl`), agentText);
        writeFileSync(
          path.join(sub, `agent-${agentId}.meta.json`),
          JSON.stringify({ agentType: 'Explore', description: words(rng, 4) }),
        );
        bytes += Buffer.byteLength(agentText);
        files++;
      }
    }
  }
  return { bytes, files };
}

const workParent = path.resolve(
  /^--work=(.+)$/.exec(process.argv.find((a) => a.startsWith('--work=')) ?? '')?.[1] ?? tmpdir(),
);
mkdirSync(workParent, { recursive: true });
const work = mkdtempSync(path.join(workParent, 'strand-bench-import-'));
const here = path.dirname(fileURLToPath(import.meta.url));
const runImports = await importRunner();

/**
 * How the imports are run: as `strand import` runs them (`importOnce`: worker lanes, projection
 * cache rows), from the CLI bundle built now — what a person runs, where worker lanes start from
 * plain JavaScript — in a `node` process of its own (`import-run.ts` says why); or with `--source`
 * from the TypeScript sources through tsx (for profiles that name source lines; each worker lane
 * then loads tsx and compiles the importers first).
 */
async function importRunner(): Promise<(args: readonly string[]) => SpawnSyncReturns<string>> {
  const run = (script: readonly string[]) => (args: readonly string[]) =>
    spawnSync(process.execPath, [...script, ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 64 * 1024 * 1024,
    });
  if (process.argv.includes('--source')) return run(['--import', 'tsx', path.join(here, 'import-run.ts')]);
  // Inside the checkout, as the CLI's own dist is: a package the bundle loads by bare name at run
  // time (a native addon's binding) resolves from the checkout's node_modules.
  const outdir = path.join(here, '..', 'node_modules', '.cache', 'strand-bench-import');
  const bundler = pathToFileURL(path.join(here, '..', 'packages', 'cli', 'scripts', 'bundle-cli.mjs')).href;
  const { bundleCli } = (await import(bundler)) as {
    bundleCli: (options: {
      outdir: string;
      layout: string;
      entries: Record<string, string>;
    }) => Promise<unknown>;
  };
  await bundleCli({
    outdir,
    layout: 'repository',
    entries: { 'import-run': path.join(here, 'import-run.ts') },
  });
  return run([path.join(outdir, 'import-run.js')]);
}

/**
 * Writes every dirty page of the machine to disk (`sync`), after a corpus is generated: otherwise
 * the kernel writes the corpus back (tens of MB, thousands of new inodes) some seconds later, in
 * the middle of whichever import is then measured (the re-import of Cline's store, ~120 ms, read
 * 103–245 ms in five runs without this, 110–129 in four with it). A person's transcripts were
 * written long before they import them.
 */
function flushToDisk(): void {
  const done = spawnSync('sync', { stdio: 'inherit' });
  if (done.status !== 0)
    throw new Error(`sync failed (${done.status ?? done.signal ?? done.error?.message})`);
}

/** A corpus's first import and its re-import with nothing changed; every cache row must be written. */
function importTwice(
  harness: ImportOptions['harness'],
  sourceDir: string,
  dataDir: string,
): { first: MeasuredImport; again: MeasuredImport } {
  const child = runImports([JSON.stringify({ harness, sourceDir, dataDir })]);
  if (child.status !== 0)
    throw new Error(`${harness}: the import process failed (${child.status ?? child.signal})`);
  const [first, again] = JSON.parse(child.stdout.trim().split('\n').at(-1)!) as [
    MeasuredImport,
    MeasuredImport,
  ];
  for (const run of [first, again])
    if (run.rowProblems.length > 0)
      throw new Error(`${harness}: cache rows failed: ${JSON.stringify(run.rowProblems)}`);
  return { first, again };
}

/**
 * Per harness: the rate of source bytes, and of sessions — a harness whose sessions are small (aider's
 * average a few kilobytes) is bound by each session's durable creation (its files written, synced
 * and renamed), not by parsing, so its MB/s reads low where its sessions/s does not.
 */
interface HarnessFigures {
  readonly importMBps: number;
  readonly sessionsPerSecond: number;
  readonly kbPerSession: number;
  readonly reimportRatio: number;
  readonly mbPerCpuSecond: number;
}
const byHarness: Record<string, HarnessFigures> = {};
const figure = (key: keyof HarnessFigures) =>
  Object.fromEntries(Object.entries(byHarness).map(([h, f]) => [h, f[key]]));
let headline: Record<string, unknown> = {};
try {
  if (measured('claude-code')) await claudeCode();
  for (const other of OTHER_HARNESSES) if (measured(other.harness)) await otherHarness(other);
  console.log(
    JSON.stringify({
      ...headline,
      importMBpsByHarness: figure('importMBps'),
      sessionsPerSecondByHarness: figure('sessionsPerSecond'),
      kbPerSessionByHarness: figure('kbPerSession'),
      mbPerCpuSecondByHarness: figure('mbPerCpuSecond'),
      reimportRatioByHarness: figure('reimportRatio'),
    }),
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}

async function claudeCode(): Promise<void> {
  const source = path.join(work, 'projects');
  const data = path.join(work, 'data');
  console.log(`import benchmark (Claude Code corpus, target ${targetMB} MB)`);
  const { ms: genMs, value: corpus } = await timeIt(() => generateCorpus(source, targetMB * 1e6));
  flushToDisk();
  const mb = corpus.bytes / 1e6;
  line(
    'corpus',
    `${round(mb, 1)} MB in ${corpus.files} transcript files (generated in ${round(genMs / 1000, 1)} s)`,
  );

  const { first, again } = importTwice('claude-code', source, data);
  // CPU time of every thread of the import's process (worker lanes included): a figure that,
  // unlike wall time, does not depend on what else the machine is running.
  const { cpuSeconds } = first;
  const sessions = first.imported;
  if (first.failed > 0 || sessions === 0) throw new Error(`first import failed: ${JSON.stringify(first)}`);
  const importMBps = mb / (first.ms / 1000);
  line('first import', `${round(first.ms / 1000, 2)} s`);
  line('  throughput', `${round(importMBps, 1)} MB/s of source (target ≥ 40)`);
  line('  sessions', `${sessions} imported, ${round(sessions / (first.ms / 1000), 0)} sessions/s`);
  line('  CPU', `${round(cpuSeconds, 2)} s on all threads (${round(mb / cpuSeconds, 1)} MB per CPU-second)`);

  if (again.imported + again.updated > 0 || again.unchanged !== sessions)
    throw new Error(`re-import changed something: ${JSON.stringify(again)}`);
  const reimportRatio = again.ms / first.ms;
  line(
    're-import, nothing changed',
    `${round(again.ms, 1)} ms (${round(reimportRatio * 100, 2)}% of the first import; target ≤ 5%)`,
  );

  byHarness['claude-code'] = {
    importMBps: round(importMBps, 2),
    sessionsPerSecond: round(sessions / (first.ms / 1000), 1),
    kbPerSession: round((mb * 1000) / sessions, 1),
    reimportRatio: round(reimportRatio, 4),
    mbPerCpuSecond: round(mb / cpuSeconds, 1),
  };
  headline = {
    corpusMB: round(mb, 1),
    files: corpus.files,
    sessions,
    importSeconds: round(first.ms / 1000, 3),
    importMBps: round(importMBps, 2),
    sessionsPerSecond: round(sessions / (first.ms / 1000), 1),
    cpuSeconds: round(cpuSeconds, 2),
    mbPerCpuSecond: round(mb / cpuSeconds, 1),
    reimportMs: round(again.ms, 1),
    reimportRatio: round(reimportRatio, 4),
  };
}

/** One other harness: its corpus generated at the same size, imported, then imported again unchanged. */
async function otherHarness(other: (typeof OTHER_HARNESSES)[number]): Promise<void> {
  const source = path.join(work, other.harness, 'source');
  const data = path.join(work, other.harness, 'data');
  console.log(`import benchmark (${other.harness} corpus, target ${targetMB} MB)`);
  const { ms: genMs, value: corpus } = await timeIt(() => other.generate(source, targetMB * 1e6));
  flushToDisk();
  const mb = corpus.bytes / 1e6;
  line(
    'corpus',
    `${round(mb, 1)} MB in ${corpus.files} transcript files (generated in ${round(genMs / 1000, 1)} s)`,
  );
  const { first, again } = importTwice(other.harness, source, data);
  const { cpuSeconds } = first;
  if (first.failed > 0 || first.imported === 0)
    throw new Error(`${other.harness}: first import failed: ${JSON.stringify(first.reports)}`);
  const importMBps = mb / (first.ms / 1000);
  const sessions = first.imported;
  line(
    'first import',
    `${round(first.ms / 1000, 2)} s, ${round(importMBps, 1)} MB/s of source (target ≥ 20)`,
  );
  line(
    '  sessions',
    `${sessions} imported, ${round(sessions / (first.ms / 1000), 0)} sessions/s, ${round((mb * 1000) / sessions, 1)} kB each`,
  );
  line('  CPU', `${round(cpuSeconds, 2)} s on all threads (${round(mb / cpuSeconds, 1)} MB per CPU-second)`);
  if (again.imported + again.updated > 0 || again.unchanged !== first.imported)
    throw new Error(`${other.harness}: re-import changed something: ${JSON.stringify(again.reports)}`);
  const reimportRatio = again.ms / first.ms;
  line(
    're-import, nothing changed',
    `${round(again.ms, 1)} ms (${round(reimportRatio * 100, 2)}% of the first import)`,
  );
  byHarness[other.harness] = {
    importMBps: round(importMBps, 2),
    sessionsPerSecond: round(sessions / (first.ms / 1000), 1),
    kbPerSession: round((mb * 1000) / sessions, 1),
    reimportRatio: round(reimportRatio, 4),
    mbPerCpuSecond: round(mb / cpuSeconds, 1),
  };
}
