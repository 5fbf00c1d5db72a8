import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openJsonlPersistence, type JsonlSessionPersistence } from '@strand/persistence';
import { BUILT_IN_UNITS, ProjectionRegistry, type AnyProjectionUnit } from '@strand/projection';
import { silentLogger, type Logger } from '@strand/session';
import { composeBaseStack, type BaseStack, type BaseStackOptions } from '../base-stack.js';
import { openDerivedStores } from '../file-stores.js';

export interface TempStackOptions
  extends Pick<BaseStackOptions, 'wrapPersistence' | 'queryHooks' | 'queryUsesCache' | 'preparations'> {
  /** Default: a registry of the built-in units plus `units`. */
  readonly registry?: ProjectionRegistry;
  readonly units?: readonly AnyProjectionUnit[];
  /** Prefix of the temp folder's name (which package's tests made it). */
  readonly prefix?: string;
  /**
   * The folder to keep the JSONL files in, the caller's (created when missing; `close` leaves it):
   * for a fixture whose own temp folder holds more than the stack. Default: a fresh temp folder.
   */
  readonly root?: string;
  /** Default: silent — fixtures assert failures through their own hooks, not the console. */
  readonly logger?: Logger;
}

/** A base stack over a fresh temp folder: JSONL + zstd files, cache and search in memory. */
export interface TempStack extends BaseStack {
  /** The JSONL files' folder: `options.root`, or the fresh temp folder. */
  readonly root: string;
  /** The JSONL persistence itself (below any `wrapPersistence`). */
  readonly jsonl: JsonlSessionPersistence;
  /** Closes the stack and removes the temp folder (not a folder passed as `options.root`). */
  close(): Promise<void>;
}

/** The lower packages' test fixtures build their stack here, the way the runtime builds its own. */
export async function openTempStack(options: TempStackOptions = {}): Promise<TempStack> {
  const root = options.root ?? mkdtempSync(path.join(tmpdir(), `${options.prefix ?? 'strand-stack'}-`));
  const registry =
    options.registry ?? new ProjectionRegistry({ units: BUILT_IN_UNITS, reportError: () => undefined });
  if (options.registry === undefined) for (const unit of options.units ?? []) registry.register(unit);
  const logger = options.logger ?? silentLogger;
  const jsonl = await openJsonlPersistence({ root });
  const stack = composeBaseStack({
    stores: openDerivedStores({ dataDir: root, registry, derived: 'memory', logger }, jsonl),
    registry,
    logger,
    ...(options.wrapPersistence === undefined ? {} : { wrapPersistence: options.wrapPersistence }),
    ...(options.queryHooks === undefined ? {} : { queryHooks: options.queryHooks }),
    ...(options.queryUsesCache === undefined ? {} : { queryUsesCache: options.queryUsesCache }),
    ...(options.preparations === undefined ? {} : { preparations: options.preparations }),
  });
  return {
    ...stack,
    root,
    jsonl,
    async close() {
      try {
        await stack.close();
      } finally {
        if (options.root === undefined) rmSync(root, { recursive: true, force: true });
      }
    },
  };
}
