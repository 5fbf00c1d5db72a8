import { z } from 'zod';
import type { ModelConfig } from '@strand/agent';
import type { SessionPersistence } from '@strand/persistence';
import { silentLogger, type Logger } from '@strand/session';
import { MAX_SUBAGENT_COLD_READ_CONCURRENCY, SUBAGENT_COLD_READ_CONCURRENCY } from '@strand/subagent';
import { RUNTIME_ERRORS } from '@strand/session/errors';

/**
 * Cold-read bound of the subagent listing on PostgreSQL. A cold read there is a round trip plus
 * the transfer of a log's rows — bound by latency, not by one local disk — so twice the files
 * bound (4) overlaps those waits; the persistence pool is sized to match (see `postgresPoolSize`),
 * and one host still opens only a handful of connections (PostgreSQL allows 100 by default).
 */
export const POSTGRES_COLD_READ_CONCURRENCY = 8;

export interface RuntimeOptions {
  /** The data folder: session logs, projection cache, search index (files store), presets.json (always). */
  readonly dataDir: string;
  /** Files store only: `jsonl` (default: JSONL + zstd files) or `sqlite` (one database file). */
  readonly backend?: 'jsonl' | 'sqlite';
  /**
   * Where sessions, the projection cache and search live: a `postgres://…` / `postgresql://…`
   * database shared by several hosts (leases and the cross-host append feed come with it), or
   * `files` / absent for the data folder.
   */
  readonly store?: string;
  /** Cold reads one subagent listing runs at once: an integer 1…64 (default 4 on files, 8 on PostgreSQL). */
  readonly coldReadConcurrency?: number;
  /** PostgreSQL store: how long a session lease outlives a host that stopped renewing it (default 15 s). */
  readonly leaseTtlMs?: number;
  /** An OpenAI-compatible model (`serve --model … --base-url …`); listed before `models`. */
  readonly model?: ModelConfig;
  /**
   * More OpenAI-compatible endpoints (`serve --models <file>`). The built-in scripted model is
   * always offered too; `catalog.models` lists exactly these.
   */
  readonly models?: readonly ModelConfig[];
  /** The route of a session that never selected a model (default: the first endpoint, else scripted). */
  readonly defaultModel?: { readonly provider: string; readonly model: string };
  /**
   * Milliseconds the built-in scripted model pauses before each word it streams (default 0).
   * `strand serve --demo` sets it so the demo shows replies being written (`follow.draft`).
   */
  readonly scriptedChunkDelayMs?: number;
  /** Index the persisted corpus for search when the runtime opens (default true; runs in the background). */
  readonly syncSearch?: boolean;
  /**
   * Wraps the store's session persistence before anything uses it: instrumentation and fault
   * injection at the writer (tests, benches). Never set by the CLI.
   */
  readonly wrapPersistence?: (persistence: SessionPersistence) => SessionPersistence;
  /**
   * Files store, JSONL: delete temp files of interrupted writes on open (default true). A runtime
   * that only reads a folder another process may be writing (the CLI's embedded reads) passes
   * false, so it never deletes that writer's in-flight temp files.
   */
  readonly sweepTemp?: boolean;
  /**
   * Where every component reports what it contained (a failed background sync, a listener that
   * threw, a lost lease connection). Default `silentLogger`; the CLI passes its stderr logger.
   */
  readonly logger?: Logger;
  /**
   * The environment `session.exportTo` places harness transcripts by: its `HOME` and each
   * harness's own variable (`CLAUDE_CONFIG_DIR`, `CODEX_HOME`, `GEMINI_CLI_HOME`), the rule
   * `strand import` reads by. Default: the process's own (the host's home). Tests pass a temp home.
   */
  readonly harnessEnv?: Readonly<Record<string, string | undefined>>;
}

export type ResolvedStore =
  | { readonly kind: 'files'; readonly backend: 'jsonl' | 'sqlite' }
  | { readonly kind: 'postgres'; readonly url: string };

/** Options after validation, with every default applied. */
export interface ResolvedRuntimeOptions {
  readonly dataDir: string;
  readonly store: ResolvedStore;
  readonly coldReadConcurrency: number;
  readonly leaseTtlMs: number | undefined;
  /** Every configured endpoint, `model` first; the scripted model is added by the model set. */
  readonly models: readonly ModelConfig[];
  readonly defaultModel: { readonly provider: string; readonly model: string } | undefined;
  readonly scriptedChunkDelayMs: number;
  readonly syncSearch: boolean;
  readonly wrapPersistence: ((persistence: SessionPersistence) => SessionPersistence) | undefined;
  readonly sweepTemp: boolean;
  readonly logger: Logger;
  readonly harnessEnv: Readonly<Record<string, string | undefined>>;
}

export class RuntimeConfigError extends RUNTIME_ERRORS.codeClass(
  'RUNTIME_CONFIG_INVALID',
  'RuntimeConfigError',
) {}

const POSTGRES_URL = /^postgres(ql)?:\/\//;

const Options = z.strictObject({
  dataDir: z.string().min(1, 'is required'),
  backend: z.enum(['jsonl', 'sqlite']).optional(),
  store: z
    .string()
    .refine((store) => store === 'files' || (POSTGRES_URL.test(store) && URL.canParse(store)), {
      message: 'must be a postgres://… or postgresql://… URL, or "files" (the data folder)',
    })
    .optional(),
  coldReadConcurrency: z
    .number({ error: 'must be a number' })
    .int('must be an integer')
    .min(1, 'must be at least 1')
    .max(MAX_SUBAGENT_COLD_READ_CONCURRENCY, `must be at most ${MAX_SUBAGENT_COLD_READ_CONCURRENCY}`)
    .optional(),
  leaseTtlMs: z.number().int('must be an integer').min(200).max(600_000).optional(),
  // The model's own factory validates its fields (AGENT_CONFIG_INVALID).
  model: z.custom<ModelConfig>((value) => typeof value === 'object' && value !== null).optional(),
  models: z
    .array(z.custom<ModelConfig>((value) => typeof value === 'object' && value !== null, 'must be an object'))
    .optional(),
  defaultModel: z.strictObject({ provider: z.string().min(1), model: z.string().min(1) }).optional(),
  scriptedChunkDelayMs: z.number().int('must be an integer').min(0).max(1000).optional(),
  syncSearch: z.boolean().optional(),
  wrapPersistence: z
    .custom<(persistence: SessionPersistence) => SessionPersistence>((value) => typeof value === 'function', {
      message: 'must be a function',
    })
    .optional(),
  sweepTemp: z.boolean().optional(),
  logger: z
    .custom<Logger>(
      (value) =>
        typeof value === 'object' &&
        value !== null &&
        (['error', 'warn', 'info', 'debug'] as const).every(
          (level) => typeof (value as Record<string, unknown>)[level] === 'function',
        ),
      { message: 'must be a Logger (error, warn, info, debug functions)' },
    )
    .optional(),
  harnessEnv: z.record(z.string(), z.string().optional()).optional(),
});

/** Validates runtime options at the edge; refuses with `RUNTIME_CONFIG_INVALID` naming every bad field. */
export function resolveRuntimeOptions(options: RuntimeOptions): ResolvedRuntimeOptions {
  const parsed = Options.safeParse(options);
  if (!parsed.success) {
    throw new RuntimeConfigError(
      `invalid runtime options: ${parsed.error.issues
        .map(
          (issue) => `${issue.path.join('.') || '(options)'} ${issue.message}${shown(options, issue.path)}`,
        )
        .join('; ')}`,
    );
  }
  const o = parsed.data;
  const postgres = o.store !== undefined && o.store !== 'files';
  if (postgres && o.backend !== undefined)
    throw new RuntimeConfigError(
      'invalid runtime options: backend applies to the files store only, not with a PostgreSQL store',
    );
  if (!postgres && o.leaseTtlMs !== undefined)
    throw new RuntimeConfigError('invalid runtime options: leaseTtlMs applies to a PostgreSQL store only');
  return {
    dataDir: o.dataDir,
    store: postgres ? { kind: 'postgres', url: o.store! } : { kind: 'files', backend: o.backend ?? 'jsonl' },
    coldReadConcurrency:
      o.coldReadConcurrency ?? (postgres ? POSTGRES_COLD_READ_CONCURRENCY : SUBAGENT_COLD_READ_CONCURRENCY),
    leaseTtlMs: o.leaseTtlMs,
    models: [...(o.model === undefined ? [] : [o.model]), ...(o.models ?? [])],
    defaultModel: o.defaultModel,
    scriptedChunkDelayMs: o.scriptedChunkDelayMs ?? 0,
    syncSearch: o.syncSearch ?? true,
    wrapPersistence: o.wrapPersistence,
    sweepTemp: o.sweepTemp ?? true,
    logger: o.logger ?? silentLogger,
    harnessEnv: o.harnessEnv ?? process.env,
  };
}

/** The persistence pool for a cold-read bound: at least its default 4, at most 16. */
export function postgresPoolSize(coldReadConcurrency: number): number {
  return Math.min(16, Math.max(4, coldReadConcurrency));
}

function shown(options: RuntimeOptions, path: readonly PropertyKey[]): string {
  if (path.length !== 1) return '';
  const value = (options as unknown as Record<PropertyKey, unknown>)[path[0]!];
  // A store URL may carry a password: never echo it.
  if (path[0] === 'store' || value === undefined) return '';
  return ` (got ${JSON.stringify(value) ?? typeof value})`;
}
