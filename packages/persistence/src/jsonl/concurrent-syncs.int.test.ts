import { mkdtempSync, rmSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Session } from '@strand/session';
import { closedTurn, createWritingSession, testHeader } from '@strand/test-support';
import { openJsonlPersistence } from './jsonl-persistence.js';
import { nodeStorageFs, type StorageFs } from './storage-fs.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A file system whose data syncs (a handle's `datasync`, a descriptor's `fdatasync`) wait, while `held`, until the test releases them. */
class GatedSyncs {
  held = false;
  readonly #waiting: (() => void)[] = [];

  get waiting(): number {
    return this.#waiting.length;
  }

  release(): void {
    this.held = false;
    for (const go of this.#waiting.splice(0)) go();
  }

  fs(): StorageFs {
    const gate = (handle: FileHandle): FileHandle =>
      new Proxy(handle, {
        get: (target, property) => {
          const value: unknown = Reflect.get(target, property, target);
          if (property !== 'datasync' || typeof value !== 'function') {
            return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
          }
          return async () => {
            if (this.held) await new Promise<void>((go) => this.#waiting.push(go));
            return target.datasync();
          };
        },
      });
    const open = (async (...args: Parameters<StorageFs['open']>) =>
      gate(await nodeStorageFs.open(...args))) as StorageFs['open'];
    // A log created by this process appends through its descriptor, synced by `fdatasync`.
    const fdatasync = async (fd: number): Promise<void> => {
      if (this.held) await new Promise<void>((go) => this.#waiting.push(go));
      return nodeStorageFs.fdatasync(fd);
    };
    return { ...nodeStorageFs, open, fdatasync };
  }
}

describe('JSONL appends of many sessions at once', () => {
  it('issue their syncs in parallel, and each append resolves only after its own sync', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'strand-jsonl-syncs-'));
    roots.push(root);
    const gate = new GatedSyncs();
    const persistence = await openJsonlPersistence({ root, fs: gate.fs() });
    const sessions: Session[] = [];
    for (let i = 0; i < 8; i++) {
      const session = await createWritingSession(persistence, testHeader(`s-${i}`));
      await session.append(closedTurn('first')); // the atomic first write, outside the gate
      sessions.push(session);
    }
    gate.held = true;
    let resolved = 0;
    const appends = sessions.map((s) => s.append(closedTurn('second')).then(() => resolved++));
    // Every session's sync is under way at once: none waits for another's to finish.
    await vi.waitFor(() => expect(gate.waiting).toBe(sessions.length));
    expect(resolved).toBe(0);
    gate.release();
    await Promise.all(appends);
    for (const s of sessions) expect((await persistence.inspect(s.id)).events).toEqual(s.events);
    await persistence.close();
  });
});
