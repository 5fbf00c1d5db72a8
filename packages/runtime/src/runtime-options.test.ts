import { describe, expect, it } from 'vitest';
import { silentLogger } from '@strand/session';
import { SUBAGENT_COLD_READ_CONCURRENCY } from '@strand/subagent';
import {
  POSTGRES_COLD_READ_CONCURRENCY,
  RuntimeConfigError,
  postgresPoolSize,
  resolveRuntimeOptions,
  type RuntimeOptions,
} from './runtime-options.js';

const refusal = (options: RuntimeOptions): RuntimeConfigError => {
  try {
    resolveRuntimeOptions(options);
  } catch (error) {
    return error as RuntimeConfigError;
  }
  throw new Error('expected the options to be refused');
};

describe('runtime options', () => {
  it('puts the single model first, then the list, and keeps the default route', () => {
    const one = { model: 'a', baseUrl: 'http://127.0.0.1:1/v1' };
    const two = { model: 'b', baseUrl: 'http://127.0.0.1:2/v1' };
    expect(
      resolveRuntimeOptions({
        dataDir: '/tmp/x',
        model: one,
        models: [two],
        defaultModel: { provider: 'openai-compatible', model: 'b' },
      }),
    ).toMatchObject({ models: [one, two], defaultModel: { provider: 'openai-compatible', model: 'b' } });
    expect(resolveRuntimeOptions({ dataDir: '/tmp/x' })).toMatchObject({
      models: [],
      defaultModel: undefined,
    });
  });

  it('refuses models that are not objects and a default route without a model', () => {
    expect(refusal({ dataDir: '/tmp/x', models: ['gpt-4o' as never] }).message).toContain('models.0');
    expect(refusal({ dataDir: '/tmp/x', defaultModel: { provider: 'local' } as never }).message).toContain(
      'defaultModel.model',
    );
  });

  it('passes a logger through, defaults to the silent one, and refuses a value that is not a Logger', () => {
    const lines: string[] = [];
    const logger = {
      error: (m: string) => void lines.push(m),
      warn: (m: string) => void lines.push(m),
      info: (m: string) => void lines.push(m),
      debug: (m: string) => void lines.push(m),
    };
    expect(resolveRuntimeOptions({ dataDir: '/tmp/x', logger }).logger).toBe(logger);
    expect(resolveRuntimeOptions({ dataDir: '/tmp/x' }).logger).toBe(silentLogger);
    expect(refusal({ dataDir: '/tmp/x', logger: { warn: () => undefined } as never }).message).toContain(
      'logger must be a Logger',
    );
  });

  it('defaults to the files store with the seed bound of 4 cold reads', () => {
    expect(resolveRuntimeOptions({ dataDir: '/tmp/x' })).toMatchObject({
      store: { kind: 'files', backend: 'jsonl' },
      coldReadConcurrency: SUBAGENT_COLD_READ_CONCURRENCY,
      syncSearch: true,
      sweepTemp: true,
    });
    expect(resolveRuntimeOptions({ dataDir: '/tmp/x', store: 'files', backend: 'sqlite' }).store).toEqual({
      kind: 'files',
      backend: 'sqlite',
    });
  });

  it('a postgres:// or postgresql:// store selects PostgreSQL with its own default bound of 8', () => {
    for (const url of ['postgres://strand@db/strand', 'postgresql://u:p@db:5432/strand?sslmode=require']) {
      expect(resolveRuntimeOptions({ dataDir: '/tmp/x', store: url })).toMatchObject({
        store: { kind: 'postgres', url },
        coldReadConcurrency: POSTGRES_COLD_READ_CONCURRENCY,
      });
    }
    expect(POSTGRES_COLD_READ_CONCURRENCY).toBe(8);
    expect(postgresPoolSize(8)).toBe(8);
    expect(postgresPoolSize(1)).toBe(4);
    expect(postgresPoolSize(64)).toBe(16);
  });

  it('a configured cold-read bound is kept on either store', () => {
    expect(resolveRuntimeOptions({ dataDir: '/tmp/x', coldReadConcurrency: 2 }).coldReadConcurrency).toBe(2);
    expect(
      resolveRuntimeOptions({ dataDir: '/tmp/x', store: 'postgres://db/s', coldReadConcurrency: 64 })
        .coldReadConcurrency,
    ).toBe(64);
  });

  it.each([0, 1.5, 65, Number.NaN, -1])('refuses coldReadConcurrency %s with a clear typed error', (bad) => {
    const error = refusal({ dataDir: '/tmp/x', coldReadConcurrency: bad });
    expect(error).toBeInstanceOf(RuntimeConfigError);
    expect(error.code).toBe('RUNTIME_CONFIG_INVALID');
    expect(error.message).toMatch(/coldReadConcurrency must be/);
  });

  it('names the bad value and the accepted range', () => {
    expect(refusal({ dataDir: '/tmp/x', coldReadConcurrency: 65 }).message).toBe(
      'invalid runtime options: coldReadConcurrency must be at most 64 (got 65)',
    );
    expect(refusal({ dataDir: '/tmp/x', coldReadConcurrency: 1.5 }).message).toBe(
      'invalid runtime options: coldReadConcurrency must be an integer (got 1.5)',
    );
  });

  it('refuses an unknown store without echoing it (a URL may hold a password), and options that do not fit the store', () => {
    const store = refusal({ dataDir: '/tmp/x', store: 'mysql://root:secret@db/x' });
    expect(store.message).toMatch(/store must be a postgres:\/\/… or postgresql:\/\/… URL, or "files"/);
    expect(store.message).not.toMatch(/secret/);
    expect(refusal({ dataDir: '/tmp/x', store: 'postgres://db/x', backend: 'sqlite' }).message).toMatch(
      /backend applies to the files store only/,
    );
    expect(refusal({ dataDir: '/tmp/x', leaseTtlMs: 1000 }).message).toMatch(
      /leaseTtlMs applies to a PostgreSQL store/,
    );
    expect(refusal({ dataDir: '' }).message).toMatch(/dataDir is required/);
    expect(refusal({ dataDir: '/tmp/x', typo: true } as unknown as RuntimeOptions).message).toMatch(/typo/);
  });
});
