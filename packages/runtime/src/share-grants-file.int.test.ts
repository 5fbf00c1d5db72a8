import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { grantStoreContract } from '@strand/host/testing';
import { describe, expect, it } from 'vitest';
import { FileShareGrantStore, SHARE_GRANTS_FILE } from './share-grants-file.js';

grantStoreContract('files (share-grants.json)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'strand-share-grants-'));
  return {
    open: () => FileShareGrantStore.open(dir),
    reopen: () => FileShareGrantStore.open(dir),
    close: () => Promise.resolve(rmSync(dir, { recursive: true, force: true })),
  };
});

describe('the grants file', () => {
  it('refuses a malformed file with RUNTIME_SHARE_GRANTS_INVALID instead of starting without its grants', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'strand-share-grants-'));
    try {
      writeFileSync(path.join(dir, SHARE_GRANTS_FILE), '{"version":1,"grants":[{"grantId":1}]}');
      await expect(FileShareGrantStore.open(dir)).rejects.toMatchObject({
        code: 'RUNTIME_SHARE_GRANTS_INVALID',
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
