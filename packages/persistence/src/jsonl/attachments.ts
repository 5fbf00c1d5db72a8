import { defined } from '@strand/session';
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { PersistenceError } from '../errors.js';
import type { Attachment } from '../types.js';
import { replaceFileAtomically } from './fs-util.js';
import { osCode } from './storage-error.js';
import type { StorageFs } from './storage-fs.js';

const REF = /^[0-9a-f]{64}$/;

/** Attachments are content-addressed blobs (sha256 hex) in a folder per session. */
export class AttachmentFiles {
  readonly #root: string;
  readonly #tmpDir: string;
  readonly #fs: StorageFs;

  constructor(root: string, tmpDir: string, fs: StorageFs) {
    this.#root = root;
    this.#tmpDir = tmpDir;
    this.#fs = fs;
  }

  dirFor(escapedId: string): string {
    return path.join(this.#root, escapedId);
  }

  async put(sessionId: string, escapedId: string, attachment: Attachment): Promise<string> {
    const ref = createHash('sha256').update(attachment.bytes).digest('hex');
    const dir = this.dirFor(escapedId);
    const file = path.join(dir, ref);
    try {
      await this.#fs.mkdir(dir, { recursive: true });
      try {
        await this.#fs.access(file);
        return ref;
      } catch (error) {
        // Not stored yet: write it below.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
      const type = Buffer.from(attachment.mediaType, 'utf8');
      await replaceFileAtomically(this.#fs, this.#tmpDir, `${file}.type`, type);
      await replaceFileAtomically(this.#fs, this.#tmpDir, file, attachment.bytes);
    } catch (error) {
      throw new PersistenceError(
        'PERSISTENCE_IO',
        `could not store attachment of ${sessionId}${osCode(error)}`,
        {
          cause: error,
          sessionId,
        },
      );
    }
    return ref;
  }

  async read(
    sessionId: string,
    escapedId: string,
    ref: string,
    signal: AbortSignal | undefined,
  ): Promise<Attachment> {
    const notFound = (): PersistenceError =>
      new PersistenceError(
        'PERSISTENCE_ATTACHMENT_NOT_FOUND',
        `session ${sessionId} has no attachment ${ref}`,
        { sessionId },
      );
    if (!REF.test(ref)) throw notFound();
    const file = path.join(this.dirFor(escapedId), ref);
    try {
      const [bytes, type] = await Promise.all([
        fsp.readFile(file, defined({ signal })),
        fsp.readFile(`${file}.type`, { encoding: 'utf8', ...defined({ signal }) }),
      ]);
      return { bytes, mediaType: type };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw notFound();
      throw error;
    }
  }

  async remove(escapedId: string): Promise<void> {
    await this.#fs.rm(this.dirFor(escapedId), { recursive: true, force: true });
  }
}
