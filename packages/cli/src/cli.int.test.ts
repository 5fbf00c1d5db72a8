import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStrand, strand } from './testing/strand-process.js';
import { DEMO_COMMON_WORD } from './commands/demo-text.js';

let data: string;

beforeAll(() => {
  data = mkdtempSync(path.join(tmpdir(), 'strand-cli-'));
  const demo = strand('demo', '--data', data, '--json');
  expect(demo.code).toBe(0);
  expect(demo.json()).toMatchObject({ sessions: 12 });
}, 300_000);

afterAll(() => rmSync(data, { recursive: true, force: true }));

/** Starts a long-running command, resolves with its stdout once `ready` matches it, then stops it with SIGINT. */
async function longRunning(
  args: string[],
  ready: (stdout: string) => boolean,
): Promise<{ stdout: string; code: number | null }> {
  const proc = startStrand(args);
  try {
    await proc.until(ready, 'the expected output');
  } finally {
    proc.kill('SIGINT');
  }
  return { code: await proc.exited, stdout: proc.stdout };
}

describe('strand CLI (--json and exit codes)', () => {
  it('demo writes nothing into a folder that already holds sessions', () => {
    const again = strand('demo', '--data', data, '--json');
    expect(again.code).toBe(0);
    expect(again.json()).toMatchObject({ sessions: 0, events: 0 });
  });

  it('list prints every session with its hints, most recently active first', () => {
    const run = strand('list', '--data', data, '--json');
    expect(run.code).toBe(0);
    const { sessions } = run.json() as {
      sessions: {
        id: string;
        header: { createdAt: number };
        hints?: { values: { title?: unknown; listMetadata?: { lastPromptAt: number | null } } };
      }[];
    };
    expect(sessions).toHaveLength(12);
    expect(sessions.find((s) => s.id === 'demo-1')?.hints?.values.title).toBe(
      'Refactor the persistence layer',
    );
    // Last activity (the last prompt, else creation) newest first, then id.
    const key = (s: (typeof sessions)[number]) =>
      s.hints?.values.listMetadata?.lastPromptAt ?? s.header.createdAt;
    expect(sessions.map((s) => s.id)).toEqual(
      [...sessions].sort((a, b) => key(b) - key(a) || (a.id < b.id ? -1 : 1)).map((s) => s.id),
    );
  });

  it("list pages with --limit and --cursor: every session once, in the whole list's order", () => {
    type Page = { sessions: { id: string; header: { origin?: string } }[]; nextCursor?: string };
    const whole = (strand('list', '--data', data, '--json').json() as Page).sessions.map((s) => s.id);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const run = strand(
        'list',
        '--data',
        data,
        '--json',
        '--limit',
        '5',
        ...(cursor ? ['--cursor', cursor] : []),
      );
      expect(run.code).toBe(0);
      const page = run.json() as Page;
      expect(page.sessions.length).toBeLessThanOrEqual(5);
      seen.push(...page.sessions.map((s) => s.id));
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== undefined && pages < 10);
    expect(pages).toBe(Math.ceil(whole.length / 5));
    expect(seen).toEqual(whole);

    // In table mode the rows go to stdout and the next page's command to stderr.
    const table = strand('list', '--data', data, '--limit', '3', '--top-level');
    expect(table.code).toBe(0);
    expect(table.stdout.trim().split('\n').length).toBeGreaterThanOrEqual(3);
    const next = /^strand: more sessions: strand list --cursor (\S+) --limit 3 --top-level$/m.exec(
      table.stderr,
    );
    expect(next).not.toBeNull();
    const rest = strand(
      'list',
      '--data',
      data,
      '--json',
      '--top-level',
      '--limit',
      '100',
      '--cursor',
      next![1]!,
    );
    expect(rest.code).toBe(0);
    const topLevel = (rest.json() as Page).sessions;
    expect(topLevel.length).toBeGreaterThan(0);
    expect(topLevel.every((s) => s.header.origin !== 'subagent')).toBe(true);
  });

  it('list refuses a cursor it did not issue (exit 1) and a page over 1000 rows (exit 2)', () => {
    const tampered = strand('list', '--data', data, '--cursor', 'not-a-cursor');
    expect(tampered.code).toBe(1);
    expect(tampered.stderr.trim().split('\n')).toHaveLength(1);
    expect(tampered.stderr).toMatch(/cursor/);
    const big = strand('list', '--data', data, '--top-level', '--limit', '5000');
    expect(big.code).toBe(2);
    expect(big.stderr).toMatch(/--limit is at most 1000/);
  });

  it('show prints the header, every projection and the last events', () => {
    const run = strand('show', 'demo-2', '--events', '5', '--data', data, '--json');
    expect(run.code).toBe(0);
    const shown = run.json() as {
      header: { id: string };
      cursor: number;
      projections: { values: Record<string, unknown> };
      events: { seq: number }[];
    };
    expect(shown.header.id).toBe('demo-2');
    expect(shown.projections.values).toMatchObject({
      title: 'Why does the follow reconnect flicker?',
      agentPreset: 'general',
    });
    expect(shown.events.map((e) => e.seq)).toEqual([0, 1, 2, 3, 4].map((i) => shown.cursor - 5 + i));
  });

  it('agents --descendants lists the tree with the corrupt child as a diagnostic', () => {
    const run = strand('agents', 'demo-1', '--descendants', '--data', data, '--json');
    expect(run.code).toBe(0);
    const { rows } = run.json() as { rows: { id: string; kind: string; depth: number; reason?: string }[] };
    expect(rows.find((r) => r.id === 'demo-1-fact-checker')).toMatchObject({ kind: 'child', depth: 3 });
    expect(rows.find((r) => r.id === 'demo-1-broken')).toMatchObject({
      kind: 'diagnostic',
      reason: 'corrupt',
    });
    const text = strand('agents', 'demo-1', '--data', data);
    expect(text.stdout).toContain('demo-1-researcher');
  });

  it('search finds a word of the demo messages and marks the match', () => {
    const word = DEMO_COMMON_WORD;
    const run = strand('search', word, '--data', data, '--json');
    expect(run.code).toBe(0);
    const page = run.json() as { results: { sessionId: string; hits: { snippet: string }[] }[] };
    expect(page.results.length).toBeGreaterThan(0);
    expect(page.results[0]!.hits[0]!.snippet).toContain(`\u0002${word}\u0003`);
    const text = strand('search', word, '--data', data, '--limit', '1');
    expect(text.stdout).toContain(`[${word}]`);
  });

  it('search finds a title (ranked first, shown) and narrows by harness and project folder', () => {
    const run = strand('search', '"Refactor the persistence layer"', '--data', data, '--json');
    expect(run.code).toBe(0);
    const page = run.json() as { results: { sessionId: string; title: string | null }[] };
    // demo-1-fork inherited demo-1's title (and its messages): the hit is demo-1's, listed once.
    expect(page.results.map((r) => [r.sessionId, r.title])).toEqual([
      ['demo-1', 'Refactor the persistence layer'],
    ]);
    const text = strand('search', 'persistence', '--data', data, '--harness', 'strand', '--limit', '1');
    expect(text.stdout).toContain('"Refactor the persistence layer"');
    expect(strand('search', 'persistence', '--data', data, '--harness', 'codex').stdout).toContain(
      'No matches.',
    );
    expect(strand('search', 'persistence', '--data', data, '--cwd', '/no/such/project').stdout).toContain(
      'No matches.',
    );
    // Any harness's name narrows (a newer importer's too); a name of another shape is a usage error.
    expect(strand('search', 'persistence', '--data', data, '--harness', 'opencode').stdout).toContain(
      'No matches.',
    );
    const refused = strand('search', 'persistence', '--data', data, '--harness', 'Open Code');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('expected a harness name');
  });

  it("search lists a hit of a fork's inherited prefix once, under the parent (issue 40)", () => {
    // demo-1-fork was seeded with demo-1's turns: the title and messages it copied are demo-1's.
    const run = strand('search', 'persistence', 'layer', '--data', data, '--json');
    expect(run.code).toBe(0);
    const page = run.json() as { results: { sessionId: string; hits: { seq: number }[] }[] };
    const ids = page.results.map((r) => r.sessionId);
    expect(ids.filter((id) => id === 'demo-1')).toHaveLength(1);
    expect(ids).not.toContain('demo-1-fork');
    expect(page.results[0]).toMatchObject({ sessionId: 'demo-1', hits: [{ seq: 1 }] });
    // The fork's own events still find it, for those only: its descriptor is its first own event.
    const shown = strand('show', 'demo-1-fork', '--data', data, '--json').json() as {
      projections: { values: { subagent: { seq: number } } };
    };
    const firstOwn = shown.projections.values.subagent.seq;
    const own = strand('search', 'fsyncs', '--data', data, '--json');
    expect(own.code).toBe(0);
    const ownPage = own.json() as { results: { sessionId: string; hits: { seq: number }[] }[] };
    const fork = ownPage.results.find((r) => r.sessionId === 'demo-1-fork');
    expect(fork?.hits.length).toBeGreaterThan(0);
    expect(fork!.hits.every((hit) => hit.seq >= firstOwn)).toBe(true);
    expect(ownPage.results.map((r) => r.sessionId)).toContain('demo-1');
  });

  it('serve --json prints its loopback URLs and stops cleanly on SIGINT', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'strand-serve-'));
    try {
      const run = await longRunning(['serve', '--data', empty, '--port', '0', '--json'], (stdout) =>
        stdout.includes('\n'),
      );
      const started = JSON.parse(run.stdout.split('\n')[0]!) as { url: string; rpcUrl: string };
      expect(started.rpcUrl).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/rpc$/);
      expect(run.code).toBe(0);
      expect(started.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('serve --require-token generates and prints a token on loopback; a bad --allow-origin is one clear line, exit 1', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'strand-serve-'));
    try {
      const run = await longRunning(
        [
          'serve',
          '--data',
          empty,
          '--port',
          '0',
          '--json',
          '--require-token',
          '--allow-origin',
          'http://ui.example:8080',
        ],
        (stdout) => stdout.includes('\n'),
      );
      const started = JSON.parse(run.stdout.split('\n')[0]!) as { url: string; token: string };
      expect(started.token.length).toBeGreaterThanOrEqual(16);
      expect(started.url).toBe(`${new URL(started.url).origin}/?token=${encodeURIComponent(started.token)}`);
      expect(run.code).toBe(0);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
    const bad = strand('serve', '--data', data, '--port', '0', '--allow-origin', 'ui.example');
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toMatch(/"ui\.example" is not an origin/);
  });

  it('follow --json prints the snapshot window as JSON lines, one event each', async () => {
    const run = await longRunning(
      ['follow', 'demo-2', '--data', data, '--json'],
      (stdout) => stdout.split('\n').filter(Boolean).length >= 20,
    );
    const events = run.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { seq: number; type: string });
    expect(events.length).toBeGreaterThanOrEqual(20);
    const seqs = events.map((e) => e.seq);
    expect(seqs).toEqual(seqs.map((_, i) => seqs[0]! + i));
    expect(run.code).toBe(0);
  });

  it('an unknown session is exit code 1 with one clear line; an unknown command is exit code 2', () => {
    const missing = strand('show', 'no-such-session', '--data', data);
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(missing.stderr).toMatch(/no-such-session was not found/);
    expect(strand('bogus').code).toBe(2);
    expect(strand('list', '--limit').code).toBe(2);
  });

  it('doctor verifies every log, and reports a corrupt one with its location (exit code 1)', () => {
    const clean = strand('doctor', '--data', data, '--json');
    expect(clean.code).toBe(0);
    expect(clean.json()).toMatchObject({ sessions: 12, findings: [] });
    const file = path.join(
      data,
      'sessions',
      readdirSync(path.join(data, 'sessions')).find((n) => n.startsWith('demo-3'))!,
    );
    const bytes = readFileSync(file);
    const damaged = Buffer.from(bytes);
    const at = Math.floor(bytes.length / 3);
    damaged[at] = damaged[at]! ^ 0xff;
    writeFileSync(file, damaged);
    try {
      const run = strand('doctor', '--data', data, '--json');
      expect(run.code).toBe(1);
      const report = run.json() as {
        findings: { sessionId: string; problem: string; location?: { byteOffset?: number } }[];
      };
      expect(report.findings).toContainEqual(
        expect.objectContaining({
          sessionId: 'demo-3',
          problem: 'corrupt',
          location: expect.objectContaining({ byteOffset: expect.any(Number) }),
        }),
      );
    } finally {
      writeFileSync(file, bytes);
    }
  });
});
