import path from 'node:path';
import type { SessionDigestOption } from '@strand/import';
import { ProjectionCache } from '@strand/projection-cache';
import { strandRegistry } from '@strand/runtime/registry';
import { STORE_FILES } from '@strand/stack';
import type { CacheRowsDigest } from './import-cache-digest.js';

export interface CacheRowsResult {
  /** Sessions whose rows were written. */
  readonly written: number;
  /** Sessions whose rows could not be written, with why (the cache is only an accelerator). */
  readonly problems: readonly { readonly id: string; readonly reason: string }[];
}

/** Digests written per commit: an import's thousands of sessions pay a commit per this many. */
const ROWS_PER_COMMIT = 256;

/**
 * The module every import lane loads to fold the sessions it wrote (`import-cache-digest`): beside
 * this one, in the sources as in the bundle (`scripts/bundle-cli.mjs` builds it as an entry).
 */
const DIGEST_MODULE = new URL(
  `./import-cache-digest${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`,
  import.meta.url,
).href;

/**
 * The projection cache rows of the sessions an import creates or changes, so a host lists them
 * with their titles at once instead of "(title unknown)" until someone opens them. Each lane folds
 * the sessions it wrote through the host's registry, from the log it holds (`import-cache-digest`,
 * the same final checkpoint a live session's detach writes); this side writes the rows in the
 * coordinating thread, `ROWS_PER_COMMIT` sessions to a commit. A failure costs only that
 * session's rows (the cache is an accelerator: the host folds such a session when it needs to).
 */
export class ImportCacheRows {
  readonly #dataDir: string;
  #cache: ProjectionCache | undefined;
  #pending: CacheRowsDigest[] = [];
  #written = 0;
  readonly #problems: { id: string; reason: string }[] = [];

  constructor(dataDir: string) {
    this.#dataDir = dataDir;
  }

  /** The import option that routes every lane's digests here. */
  get digest(): SessionDigestOption {
    return {
      module: DIGEST_MODULE,
      collect: (digests) => {
        this.#pending.push(...(digests as CacheRowsDigest[]));
        if (this.#pending.length >= ROWS_PER_COMMIT) this.#flush();
      },
    };
  }

  /** Writes what is pending and closes the cache; resolves with what was written and what failed. */
  finish(): CacheRowsResult {
    try {
      this.#flush();
    } finally {
      this.#cache?.close();
      this.#cache = undefined;
    }
    return { written: this.#written, problems: this.#problems };
  }

  #flush(): void {
    const batch = this.#pending;
    this.#pending = [];
    if (batch.length === 0) return;
    let cache: ProjectionCache;
    try {
      this.#cache ??= ProjectionCache.open({
        path: path.join(this.#dataDir, STORE_FILES.projectionCache),
        registry: strandRegistry(),
      });
      cache = this.#cache;
    } catch (error) {
      for (const digest of batch) this.#problem(digest.header.id, error);
      return;
    }
    try {
      cache.batch(() => {
        for (const digest of batch) this.#apply(cache, digest);
      });
    } catch (error) {
      // The commit failed: none of the batch's rows is there.
      this.#written -= batch.filter((digest) => digest.kind === 'put').length;
      for (const digest of batch) this.#problem(digest.header.id, error);
    }
  }

  #apply(cache: ProjectionCache, digest: CacheRowsDigest): void {
    const id = digest.header.id;
    try {
      if (digest.kind === 'put') {
        cache.put(
          { header: digest.header, incarnation: digest.incarnation },
          digest.inheritedCut,
          digest.rows,
        );
        this.#written++;
      } else {
        cache.forget(id);
        this.#problems.push({ id, reason: `projection fold failed: ${digest.reason}` });
      }
    } catch (error) {
      this.#problem(id, error);
    }
  }

  #problem(id: string, error: unknown): void {
    this.#problems.push({ id, reason: error instanceof Error ? error.message : String(error) });
  }
}
