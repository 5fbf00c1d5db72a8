import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openJsonlPersistence } from '@strand/persistence';
import { BUILT_IN_UNITS, ProjectionRegistry } from '@strand/projection';
import { ProjectionCache } from '@strand/projection-cache';
import { SessionLogOffset } from '@strand/session';
import { STORE_FILES } from '@strand/stack';
import { registerSubagentUnits } from '@strand/subagent';
import { seededIntegers } from '@strand/test-support';

const child = path.join(path.dirname(fileURLToPath(import.meta.url)), 'test', 'cache-writer.child.ts');
const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function runAndKill(dataDir: string, killAfterMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', child, dataDir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    proc.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) setTimeout(() => proc.kill('SIGKILL'), killAfterMs);
    });
    proc.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    proc.on('exit', (_code, signal) =>
      signal === 'SIGKILL' ? resolve() : reject(new Error(`writer exited on its own: ${err}`)),
    );
  });
}

describe('projection cache under crashes', () => {
  it('a SIGKILLed runtime never leaves a cache row whose cut is beyond what the log durably stored', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'strand-cache-crash-'));
    roots.push(dataDir);
    let rowsChecked = 0;
    // The kill delays are printed and replayed from STRAND_TEST_SEED.
    for (const killAfterMs of seededIntegers('cache writer kill delays (ms)', { min: 100, max: 499 }, 8)) {
      await runAndKill(dataDir, killAfterMs);
      const persistence = await openJsonlPersistence({ root: dataDir });
      const registry = new ProjectionRegistry();
      for (const unit of BUILT_IN_UNITS) registry.register(unit);
      registerSubagentUnits(registry);
      const cache = ProjectionCache.open({ path: path.join(dataDir, STORE_FILES.projectionCache), registry });
      try {
        for (const summary of await persistence.list()) {
          const stored = (await persistence.inspect(summary.header.id)).events.length;
          const rows = cache.cachedStates(summary, SessionLogOffset(0));
          for (const row of Object.values(rows)) {
            expect(row.cut).toBeLessThanOrEqual(stored);
            rowsChecked++;
          }
        }
      } finally {
        cache.close();
        await persistence.close();
      }
    }
    expect(rowsChecked).toBeGreaterThan(0); // rows were really written between kills
  }, 300_000);
});
