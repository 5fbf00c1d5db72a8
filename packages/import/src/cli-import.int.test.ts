import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PACKAGE_SRC, workspace, type Workspace } from './testing/fixture-dirs.js';
import { readCrushDump, restoreCrushDb } from './testing/crush-db.js';

/**
 * `strand import` end to end, through the real CLI entry (a child process): the JSON summary's
 * shape and the exit codes. Lives here because the command is a thin shell over this package.
 */
const REPO = path.resolve(fileURLToPath(import.meta.url), '../../../..');
const BIN = path.join(REPO, 'packages', 'cli', 'bin', 'strand.js');
/** A Gemini chat that imports cleanly (no reports). */
const GEMINI_CHAT = path.join(
  PACKAGE_SRC,
  'gemini',
  'fixtures',
  'a2a',
  'session-2026-05-03T10-00-a2a-serv.jsonl',
);

let ws: Workspace;
beforeEach(() => {
  ws = workspace();
  mkdirSync(ws.source, { recursive: true });
});
afterEach(() => ws.dispose());

function strand(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd: REPO,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('strand import', () => {
  it('--json prints exactly one JSON object with numeric counts and a report list, and exits 0', () => {
    copyFileSync(GEMINI_CHAT, path.join(ws.source, 'session.jsonl'));
    const run = strand('import', 'gemini', ws.source, '--data', ws.data, '--json');
    expect(run.status).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const summary = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(summary).toMatchObject({
      imported: 1,
      updated: 0,
      unchanged: 0,
      skipped: 0,
      failed: 0,
      reports: [],
    });
    for (const key of ['imported', 'updated', 'unchanged', 'skipped', 'failed'])
      expect(typeof summary[key]).toBe('number');
    expect(
      JSON.parse(strand('import', 'gemini', ws.source, '--data', ws.data, '--json').stdout),
    ).toMatchObject({ imported: 0, unchanged: 1 });
  });

  it('exits 1 when a file failed, and still imports the others', () => {
    copyFileSync(GEMINI_CHAT, path.join(ws.source, 'session.jsonl'));
    writeFileSync(path.join(ws.source, 'session-cut.json'), '{"sessionId":"x","messages":[{"id":"a"');
    const run = strand('import', 'gemini', ws.source, '--data', ws.data, '--json');
    expect(run.status).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({
      imported: 1,
      failed: 1,
      reports: [expect.objectContaining({ kind: 'failed' })],
    });
  });

  it('exits 2 on usage errors: an unknown harness, a missing folder', () => {
    expect(strand('import', 'windsurf', ws.source, '--data', ws.data).status).toBe(2);
    const missing = strand('import', 'codex', path.join(ws.root, 'nope'), '--data', ws.data);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('no such folder');
    // One line, prefixed like every other `strand` error line.
    expect(missing.stderr).toMatch(/^strand: [^\n]+\n$/);
  });

  it('exits 2 for aider without a folder: its histories are per project, with no default to read', () => {
    const run = strand('import', 'aider', '--data', ws.data);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('aider keeps its history per project');
    expect(run.stderr).toMatch(/^strand: [^\n]+\n$/);
    // The same for following it live: the --watch value is refused before anything starts.
    const watch = strand('serve', '--watch', 'aider', '--data', ws.data, '--port', '0');
    expect(watch.status).toBe(2);
    expect(watch.stderr).toContain('--watch aider:<dir>');
    expect(watch.stderr).toMatch(/^strand: [^\n]+\n$/);
  });

  it('exits 2 for crush without a folder; with a tree of projects it imports their databases', () => {
    const run = strand('import', 'crush', '--data', ws.data);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('crush keeps its history per project');
    restoreCrushDb(
      readCrushDump(path.join(PACKAGE_SRC, 'crush', 'fixtures', 'subagent.json')),
      path.join(ws.source, 'app', '.crush', 'crush.db'),
    );
    const ok = strand('import', 'crush', ws.source, '--data', ws.data, '--json');
    expect(ok.status).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ imported: 2, failed: 0 });
  });

  it('every text report line names the file, the line (or the whole file) and the reason', () => {
    const claude = path.join(PACKAGE_SRC, 'claude-code', 'fixtures');
    copyFileSync(
      path.join(claude, 'damaged', '0d0d0d0d-1111-4222-8333-444455556666.jsonl'),
      path.join(ws.source, '0d0d0d0d-1111-4222-8333-444455556666.jsonl'),
    );
    copyFileSync(
      path.join(claude, 'flat-2.0', '-home-dev-tool', 'agent-9e9e9e9e.jsonl'),
      path.join(ws.source, 'agent-9e9e9e9e.jsonl'),
    );
    const run = strand('import', 'claude-code', ws.source, '--data', ws.data);
    expect(run.status).toBe(0);
    const reports = run.stdout.split('\n').filter((l) => /^ {2}(failed|replaced|skipped-|note)/.test(l));
    expect(reports.length).toBeGreaterThanOrEqual(4);
    for (const line of reports)
      expect(line).toMatch(/^ {2}[a-z-]+ +\/\S+\.jsonl(:\d+| \(whole file\)): \S.*$/);
    expect(
      reports.some((l) => l.includes('agent-9e9e9e9e.jsonl (whole file): a Claude Code warmup agent')),
    ).toBe(true);
    expect(reports.some((l) => /0d0d0d0d-[^:]+\.jsonl:\d+: /.test(l))).toBe(true);
  });

  it('prints a text summary without --json', () => {
    const run = strand('import', 'codex', ws.source, '--data', ws.data);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('imported 0, updated 0, unchanged 0 sessions; skipped 0, failed 0');
  });
});
