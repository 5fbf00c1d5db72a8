import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { noPostgres } from '@strand/postgres/testing';

const SESSIONS = 1_000;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** The keys `bench:scale` reports per backend (issue 41, item 5). */
const FIGURES = [
  'sessions',
  'events',
  'listPageP99Ms',
  'filteredPageP99Ms',
  'searchP99Ms',
  'hostRssMB',
  'listIndexBuildSeconds',
] as const;

/**
 * `npm run bench:scale -- --quick` end to end: the corpus written through the stores, the list
 * index built, the real host serving pages and searches over the wire. Asserts the figures are
 * there and the calls were answered — never a time. PostgreSQL too when a server is configured.
 */
describe('bench:scale --quick', () => {
  it('reports every figure per backend, with every session reached through the pages', async () => {
    const backends = noPostgres ? ['sqlite'] : ['sqlite', 'postgres'];
    const { stdout } = await promisify(execFile)(
      process.execPath,
      // Half the quick corpus: the suite runs on three Node versions in CI, and what is checked
      // here is that every part answers, not a figure.
      [
        '--import',
        'tsx',
        'bench/scale.bench.ts',
        '--quick',
        '--sessions',
        String(SESSIONS),
        '--events',
        String(SESSIONS * 10),
        '--backend',
        backends.join(','),
      ],
      { cwd: root, maxBuffer: 16 * 1024 * 1024 },
    );
    const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, Record<string, number>>;
    expect(result.quick).toBe(true);
    for (const backend of backends) {
      const figures = result[backend]!;
      for (const key of FIGURES) expect(typeof figures[key], `${backend}.${key}`).toBe('number');
      expect(figures).toMatchObject({ sessions: SESSIONS, events: SESSIONS * 10, listedRows: SESSIONS });
      expect(figures.pagesAnswered).toBeGreaterThan(0);
      expect(figures.searchesAnswered).toBeGreaterThan(0);
    }
  }, 180_000);
});
