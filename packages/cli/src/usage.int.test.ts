import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJsonlPersistence, persistenceWriter } from '@strand/persistence';
import { Session, SessionId, newSessionHeader, type SessionEventInput } from '@strand/session';
import { strand } from './testing/strand-process.js';

/**
 * `strand usage` in a real process of the bundled CLI over a real folder: two sessions on two
 * days, one model the bundled table prices (Sonnet 4.5) and one it does not.
 */
let root: string;
let data: string;
// Noon UTC: the same calendar day in every zone from UTC−11 to UTC+11, whatever TZ runs the test.
const DAY1 = Date.parse('2026-11-02T12:00:00Z');
const DAY2 = Date.parse('2026-11-03T12:00:00Z');
const SONNET = { provider: 'anthropic', model: 'claude-sonnet-4-5' };
const OWN = { provider: 'local', model: 'my-model' };

function answer(time: number, usage: Record<string, number>): SessionEventInput[] {
  return [
    { type: 'turn/start', data: {}, time },
    { type: 'user/message', data: { content: 'go', author: 'human' }, time },
    { type: 'assistant/message', data: { content: 'done', usage }, time },
    { type: 'turn/end', data: { reason: 'completed' }, time },
  ];
}

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'strand-usage-'));
  data = path.join(root, 'data');
  const persistence = await openJsonlPersistence({ root: data });
  const write = async (id: string, cwd: string, events: SessionEventInput[]) => {
    const header = newSessionHeader({ id: SessionId(id), createdAt: DAY1, cwd });
    const { incarnation } = await persistence.create({ header });
    const session = new Session({ header, incarnation, writer: persistenceWriter(persistence, header.id) });
    await session.append([
      { type: 'session/title', data: { title: `Title of ${id}` }, time: DAY1 },
      ...events,
    ]);
  };
  await write('alpha', '/work/a', [
    { type: 'request/header', data: SONNET, time: DAY1 },
    ...answer(DAY1, { input: 1_000, output: 2_000, cacheCreation: 3_000, cacheRead: 400_000 }),
    ...answer(DAY2, { input: 10, output: 20, cacheRead: 1_000 }),
  ]);
  await write('beta', '/work/b', [
    { type: 'request/header', data: OWN, time: DAY2 },
    ...answer(DAY2, { input: 500, output: 50, reasoning: 30 }),
  ]);
  await persistence.close();
}, 120_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Row {
  key: string;
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
  reasoningTokens: number;
  totalTokens: number;
  totalCost: number | null;
  unpricedModels: string[];
}

function usageJson(...args: string[]): { rows: Row[]; totals: Row & { sessions: number } } {
  const run = strand('usage', '--data', data, '--json', ...args);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as { rows: Row[]; totals: Row & { sessions: number } };
}

/**
 * Anthropic's Sonnet 4.5 prices, USD per million tokens (input, output, cache read, cache write),
 * and the tier a request whose prompt passes 200k tokens is priced at as a whole.
 */
const sonnetCost = (
  t: { input: number; output: number; cacheRead: number; cacheCreation: number },
  tier: 'base' | 'long context',
) => {
  const [i, o, r, w] = tier === 'base' ? [3, 15, 0.3, 3.75] : [6, 22.5, 0.6, 7.5];
  return (t.input * i + t.output * o + t.cacheRead * r + t.cacheCreation * w) / 1e6;
};

describe('strand usage', () => {
  it('sums each kind per day, and prices each model from the bundled table; an unpriced model is named', () => {
    const { rows, totals } = usageJson('--by', 'day');
    expect(
      rows.map((r) => [r.key, r.inputTokens, r.outputTokens, r.cacheCreationTokens, r.cacheReadTokens]),
    ).toEqual([
      ['2026-11-02', 1_000, 2_000, 3_000, 400_000],
      ['2026-11-03', 510, 70, 0, 1_000],
    ]);
    expect(rows[0]!.totalTokens).toBe(1_000 + 2_000 + 3_000 + 400_000);
    // Day 1's response had a 404,000-token prompt: the long-context tier prices it.
    expect(rows[0]!.totalCost).toBeCloseTo(
      sonnetCost({ input: 1_000, output: 2_000, cacheCreation: 3_000, cacheRead: 400_000 }, 'long context'),
      9,
    );
    // Day 2 mixes a priced and an unpriced model: the priced part, and the other named.
    expect(rows[1]!.totalCost).toBeCloseTo(
      sonnetCost({ input: 10, output: 20, cacheCreation: 0, cacheRead: 1_000 }, 'base'),
      9,
    );
    expect(rows[1]!.unpricedModels).toEqual(['my-model']);
    expect(totals).toMatchObject({ sessions: 2, reasoningTokens: 30, inputTokens: 1_510 });
  });

  it('groups by model in aligned columns, showing — for a model without a price', () => {
    const run = strand('usage', '--data', data, '--by', 'model');
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toMatch(/^Model\s+Input\s+Output\s+Cache write\s+Cache read\s+Total\s+Cost$/);
    expect(lines[1]).toMatch(/^claude-sonnet-4-5\s+1,010\s+2,020\s+3,000\s+401,000\s+407,030\s+\$\d+\.\d\d$/);
    expect(lines[2]).toMatch(/^my-model\s+500\s+50\s+0\s+0\s+550\s+—$/);
    expect(lines[3]).toMatch(/^Total\s+1,510\s+.*\$\d+\.\d\d\*$/);
    // Every row's columns end where the header's do.
    expect(new Set(lines.slice(0, 4).map((l) => l.length)).size).toBe(1);
    expect(run.stdout).toContain('* leaves out models without a price (my-model)');
  });

  it("shows the harness's own reported cost beside Strand's, where a session carries one", async () => {
    const folder = path.join(root, 'reported');
    const persistence = await openJsonlPersistence({ root: folder });
    const header = newSessionHeader({
      id: SessionId('claude-reported'),
      createdAt: DAY1,
      cwd: '/work/c',
      source: { harness: 'claude-code', sourceId: 'reported' },
    });
    const { incarnation } = await persistence.create({ header });
    const session = new Session({ header, incarnation, writer: persistenceWriter(persistence, header.id) });
    await session.append([
      { type: 'request/header', data: SONNET, time: DAY1 },
      ...answer(DAY1, { input: 100, output: 200 }),
      { type: 'session/cost', data: { usd: 0.42, byModel: { 'claude-sonnet-4-5': 0.42 } }, time: DAY1 },
    ]);
    await persistence.close();
    const json = strand('usage', '--data', folder, '--by', 'session', '--json');
    expect(json.code, json.stderr).toBe(0);
    const summary = JSON.parse(json.stdout) as { rows: (Row & { reportedCost: number | null })[] };
    expect(summary.rows.map((r) => [r.key, r.reportedCost])).toEqual([['claude-reported', 0.42]]);
    expect(summary.rows[0]!.totalCost).toBeCloseTo(
      sonnetCost({ input: 100, output: 200, cacheRead: 0, cacheCreation: 0 }, 'base'),
      9,
    );
    const table = strand('usage', '--data', folder, '--by', 'model');
    expect(table.code, table.stderr).toBe(0);
    const lines = table.stdout.split('\n');
    expect(lines[0]).toMatch(/\sCost\s+Reported$/);
    expect(lines[1]).toMatch(/^claude-sonnet-4-5\s.*\$0\.00\s+\$0\.42$/);
  });

  it('a --pricing file prices the models it names', () => {
    const file = path.join(root, 'prices.json');
    writeFileSync(
      file,
      JSON.stringify({ models: { 'my-model': { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 } } }),
    );
    const { rows } = usageJson('--by', 'model', '--pricing', file);
    const own = rows.find((r) => r.key === 'my-model')!;
    expect(own.totalCost).toBeCloseTo((500 * 1 + 50 * 2) / 1e6, 12);
    expect(own.unpricedModels).toEqual([]);
  });

  it('filters by folder and days', () => {
    expect(usageJson('--cwd', '/work/a').totals.inputTokens).toBe(1_010);
    expect(usageJson('--since', '2026-11-03').totals.inputTokens).toBe(510);
    expect(usageJson('--until', '2026-11-02').totals.inputTokens).toBe(1_000);
    expect(usageJson('--by', 'session').rows.map((r) => r.key)).toEqual(['alpha', 'beta']);
  });

  it('refuses a bound that is no date, and a pricing file that is no price table, saying why', () => {
    const since = strand('usage', '--data', data, '--since', 'yesterday');
    expect(since.code).not.toBe(0);
    expect(since.stderr).toMatch(/--since "yesterday" is neither YYYY-MM-DD nor an ISO time/);
    const file = path.join(root, 'bad-prices.json');
    writeFileSync(file, '{"models": {"m": {"input": "cheap"}}}');
    const pricing = strand('usage', '--data', data, '--pricing', file);
    expect(pricing.code).not.toBe(0);
    expect(pricing.stderr).toMatch(/--pricing .*bad-prices\.json: model "m": needs input, output/);
  });
});
