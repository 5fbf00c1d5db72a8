import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { persistenceContract } from '@strand/test-support';
import { openJsonlPersistence } from './jsonl-persistence.js';

for (const compression of ['zstd', 'none'] as const) {
  persistenceContract(`jsonl (${compression})`, async () => {
    const root = mkdtempSync(path.join(tmpdir(), `strand-jsonl-contract-${compression}-`));
    let current = await openJsonlPersistence({ root, compression });
    return {
      persistence: current,
      reopen: async () => {
        await current.close();
        current = await openJsonlPersistence({ root, compression });
        return current;
      },
      dispose: async () => {
        await current.close();
        rmSync(root, { recursive: true, force: true });
      },
    };
  });
}
