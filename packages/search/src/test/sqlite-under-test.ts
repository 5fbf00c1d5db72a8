import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SearchIndexUnderTest } from '../testing/harness.js';
import type { SearchIndexTuning } from '../search-index.js';
import { SessionSearchIndex } from '../session-search-index.js';

/** A SQLite index in its own temp file (a file, so `reopen` is a real restart). */
export function openSqliteUnderTest(options: SearchIndexTuning = {}): Promise<SearchIndexUnderTest> {
  const dir = mkdtempSync(path.join(tmpdir(), 'strand-search-index-'));
  const file = path.join(dir, 'search.db');
  let current = SessionSearchIndex.open({ path: file, ...options });
  return Promise.resolve({
    get index() {
      return current;
    },
    reopen() {
      current.close();
      current = SessionSearchIndex.open({ path: file, ...options });
      return Promise.resolve(current);
    },
    dispose() {
      current.close();
      rmSync(dir, { recursive: true, force: true });
      return Promise.resolve();
    },
  });
}
