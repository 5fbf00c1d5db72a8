import { mkdtempSync, rmSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testHeader } from '@strand/test-support';
import { openJsonlPersistence } from './jsonl-persistence.js';
import { nodeStorageFs, type StorageFs } from './storage-fs.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/**
 * A file system that writes down, in order, every link naming a new log, every fsync of the
 * sessions folder (its start and end) and every file sync; the sessions folder's fsyncs wait,
 * while `held`, until the test releases them.
 */
class CountedSyncs {
  held = false;
  readonly trail: string[] = [];
  fileSyncs = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(private readonly sessionsDir: string) {}

  get waiting(): number {
    return this.#waiting.length;
  }

  get folderSyncs(): number {
    return this.trail.filter((step) => step === 'folder-sync-start').length;
  }

  release(): void {
    this.held = false;
    for (const go of this.#waiting.splice(0)) go();
  }

  fs(): StorageFs {
    // The sessions folder is opened (synchronously) to be fsynced through its descriptor.
    const folders = new Set<number>();
    const openSync = ((...args: Parameters<StorageFs['openSync']>) => {
      const fd = nodeStorageFs.openSync(...args);
      if (args[0] === this.sessionsDir) folders.add(fd);
      return fd;
    }) as StorageFs['openSync'];
    const closeSync = ((fd) => {
      folders.delete(fd);
      nodeStorageFs.closeSync(fd);
    }) as StorageFs['closeSync'];
    // A new log is named by a synchronous link (`writeNewFileAtomically`).
    const linkSync = ((from, to) => {
      nodeStorageFs.linkSync(from, to);
      this.trail.push(`link ${path.basename(String(to)).replace(/\.zst$/, '')}`);
    }) as StorageFs['linkSync'];
    // A new log is written through a descriptor, synced by `fsync` (a reopened one by its handle).
    const fsync = async (fd: number): Promise<void> => {
      if (!folders.has(fd)) {
        this.fileSyncs++;
        return nodeStorageFs.fsync(fd);
      }
      if (this.held) await new Promise<void>((go) => this.#waiting.push(go));
      this.trail.push('folder-sync-start');
      await nodeStorageFs.fsync(fd);
      this.trail.push('folder-sync-end');
    };
    const fdatasync = (fd: number): Promise<void> => {
      this.fileSyncs++;
      return nodeStorageFs.fdatasync(fd);
    };
    const counted = (handle: FileHandle): FileHandle =>
      new Proxy(handle, {
        get: (target, property) => {
          const value: unknown = Reflect.get(target, property, target);
          if (property !== 'sync' && property !== 'datasync')
            return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
          return () => {
            this.fileSyncs++;
            return property === 'sync' ? target.sync() : target.datasync();
          };
        },
      });
    const open = (async (...args: Parameters<StorageFs['open']>) =>
      counted(await nodeStorageFs.open(...args))) as StorageFs['open'];
    return { ...nodeStorageFs, open, openSync, closeSync, linkSync, fsync, fdatasync };
  }
}

describe('JSONL creates of many sessions at once', () => {
  it('share their folder fsyncs (O(1) for N creates), and each resolves only after a folder sync begun after its link', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'strand-jsonl-creates-'));
    roots.push(root);
    const counted = new CountedSyncs(path.join(root, 'sessions'));
    const fs = counted.fs();
    // Three stores on one folder, as the import opens one per source file: they share the syncs too.
    const stores = await Promise.all([0, 1, 2].map(() => openJsonlPersistence({ root, fs })));
    const count = 24;
    counted.held = true;
    const creates = Array.from({ length: count }, (_, i) => {
      const id = `s-${i}`;
      return stores[i % stores.length]!.create({ header: testHeader(id), materialize: true }).then(() => {
        counted.trail.push(`resolved ${id}`);
      });
    });
    // Every log is linked and waits on the one folder sync in flight; none has resolved.
    await vi.waitFor(() =>
      expect(counted.trail.filter((step) => step.startsWith('link ')).length).toBe(count),
    );
    await vi.waitFor(() => expect(counted.waiting).toBe(1));
    expect(counted.trail.some((step) => step.startsWith('resolved '))).toBe(false);
    counted.release();
    await Promise.all(creates);

    // The one sync held, and one more for everything that arrived meanwhile.
    expect(counted.folderSyncs).toBeLessThanOrEqual(2);
    // Each file's own data is still synced (no sharing possible there): one temp file each.
    expect(counted.fileSyncs).toBe(count);
    for (let i = 0; i < count; i++) {
      const linked = counted.trail.indexOf(`link s-${i}`);
      const resolved = counted.trail.indexOf(`resolved s-${i}`);
      const start = counted.trail.indexOf('folder-sync-start', linked);
      const end = counted.trail.indexOf('folder-sync-end', start);
      expect(start).toBeGreaterThan(linked);
      expect(end).toBeGreaterThan(start);
      expect(resolved).toBeGreaterThan(end);
    }
    const listed = (await stores[0]!.list()).map((s) => s.header.id).sort();
    expect(listed).toEqual(Array.from({ length: count }, (_, i) => `s-${i}`).sort());
    for (const store of stores) await store.close();
  });
});
