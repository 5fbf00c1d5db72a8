import { randomBytes } from 'node:crypto';
import { open, readFile, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { ShareGrant, ShareGrantStore } from '@strand/host';
import { RUNTIME_ERRORS } from '@strand/session/errors';
import { z } from 'zod';
import { parseJsonConfig } from './json-config.js';

/** The grants file of a data folder (beside the sessions it names). */
export const SHARE_GRANTS_FILE = 'share-grants.json';

const ms = z.number().int().nonnegative();
const Grant = z.strictObject({
  grantId: z.string().min(1),
  tokenHash: z.string().regex(/^[0-9a-f]{64}$/),
  sessionId: z.string().min(1),
  descendants: z.boolean(),
  expiresAt: ms.nullable(),
  label: z.string().nullable(),
  createdBy: z.string().min(1),
  createdAt: ms,
  revokedAt: ms.nullable(),
});
const File = z.strictObject({ version: z.literal(1), grants: z.array(Grant) });

/** `share-grants.json` cannot be read as grants: the host refuses to start rather than lose them. */
export class ShareGrantsFileError extends RUNTIME_ERRORS.codeClass(
  'RUNTIME_SHARE_GRANTS_INVALID',
  'ShareGrantsFileError',
) {}

/**
 * The files backends' grant store: every grant in memory, the whole list rewritten atomically
 * (temp file, fsync, rename) on each change. One process writes a data folder (its lock), and a
 * host holds a handful of grants, so a rewrite per grant or revoke is cheap and never torn.
 */
export class FileShareGrantStore implements ShareGrantStore {
  readonly #file: string;
  readonly #grants: Map<string, ShareGrant>;
  #writing: Promise<void> = Promise.resolve();

  private constructor(file: string, grants: readonly ShareGrant[]) {
    this.#file = file;
    this.#grants = new Map(grants.map((grant) => [grant.grantId, grant]));
  }

  /** Opens the data folder's grants (none when the file does not exist yet). */
  static async open(dataDir: string): Promise<FileShareGrantStore> {
    const file = path.join(dataDir, SHARE_GRANTS_FILE);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new FileShareGrantStore(file, []);
      throw new ShareGrantsFileError(`cannot read ${file}: ${(error as Error).message}`);
    }
    const data = parseJsonConfig(file, text, File, (message) => new ShareGrantsFileError(message));
    return new FileShareGrantStore(file, data.grants);
  }

  async add(grant: ShareGrant): Promise<void> {
    this.#grants.set(grant.grantId, grant);
    await this.#save();
  }

  byTokenHash(tokenHash: string): Promise<ShareGrant | undefined> {
    for (const grant of this.#grants.values())
      if (grant.tokenHash === tokenHash) return Promise.resolve(grant);
    return Promise.resolve(undefined);
  }

  byId(grantId: string): Promise<ShareGrant | undefined> {
    return Promise.resolve(this.#grants.get(grantId));
  }

  list(): Promise<readonly ShareGrant[]> {
    return Promise.resolve([...this.#grants.values()].sort((a, b) => a.createdAt - b.createdAt));
  }

  async revoke(grantId: string, at: number): Promise<ShareGrant | undefined> {
    const grant = this.#grants.get(grantId);
    if (grant === undefined) return undefined;
    if (grant.revokedAt !== null) return grant;
    const revoked = { ...grant, revokedAt: at };
    this.#grants.set(grantId, revoked);
    await this.#save();
    return revoked;
  }

  /** Writes the current list after any write in progress: the last write holds every change. */
  #save(): Promise<void> {
    const next = this.#writing.catch(() => undefined).then(() => this.#write());
    this.#writing = next;
    return next;
  }

  async #write(): Promise<void> {
    const text = `${JSON.stringify({ version: 1, grants: [...this.#grants.values()] }, null, 2)}\n`;
    const tmp = `${this.#file}.${randomBytes(6).toString('hex')}.tmp`;
    const handle = await open(tmp, 'wx', 0o600);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await rename(tmp, this.#file);
    } catch (error) {
      await unlink(tmp).catch(() => {
        // A leftover temp file is harmless: the grants file is only ever renamed over.
      });
      throw error;
    }
  }
}
