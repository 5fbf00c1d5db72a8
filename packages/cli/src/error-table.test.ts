import { AGENT_ERROR_CODES } from '@strand/agent';
import { STRAND_CLIENT_ERROR_CODES } from '@strand/client';
import { HOST_ERROR_CODES } from '@strand/host';
import { IMPORT_ERROR_CODES } from '@strand/import';
import { PERSISTENCE_ERROR_CODES } from '@strand/persistence';
import { POSTGRES_ERROR_CODES } from '@strand/postgres';
import { PROJECTION_ERROR_CODES } from '@strand/projection';
import { PROJECTION_CACHE_ERROR_CODES } from '@strand/projection-cache';
import { ERROR_TABLE, OWNER_BLOCKS, RPC_ERROR_CODES, type ErrorOwner } from '@strand/protocol';
import { SESSION_QUERY_ERROR_CODES } from '@strand/query';
import { RUNTIME_ERROR_CODES } from '@strand/runtime';
import { SEARCH_INDEX_ERROR_CODES } from '@strand/search';
import { STRAND_MCP_ERROR_CODES } from '@strand/mcp';
import { SESSION_ERROR_CODES } from '@strand/session';
import { SUBAGENT_ERROR_CODES } from '@strand/subagent';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { STRAND_ACP_ERROR_CODES } from './acp/errors.js';
import { EXPORT_ERROR_CODES } from './commands/export-command.js';
import { DATA_LOCK_ERROR_CODES } from './data-lock/errors.js';
import { CLI_ERROR_CODES } from './error-codes.js';
import { REMOTE_HOST_ERROR_CODES } from './remote-error.js';
import { SERVE_ERROR_CODES } from './serve-port.js';

const REPO = path.resolve(import.meta.dirname, '..', '..', '..');

// This test lives in the CLI because the CLI is the one package that may import every other.
const UNIONS: Readonly<Record<string, readonly string[]>> = {
  protocol: RPC_ERROR_CODES,
  host: HOST_ERROR_CODES,
  session: SESSION_ERROR_CODES,
  persistence: PERSISTENCE_ERROR_CODES,
  projection: PROJECTION_ERROR_CODES,
  'projection-cache': PROJECTION_CACHE_ERROR_CODES,
  query: SESSION_QUERY_ERROR_CODES,
  search: SEARCH_INDEX_ERROR_CODES,
  subagent: SUBAGENT_ERROR_CODES,
  agent: AGENT_ERROR_CODES,
  postgres: POSTGRES_ERROR_CODES,
  runtime: RUNTIME_ERROR_CODES,
  import: IMPORT_ERROR_CODES,
  cli: CLI_ERROR_CODES,
  client: STRAND_CLIENT_ERROR_CODES,
};

/** The table's owner names a package, or a part of one (`json-rpc` is the protocol's, `coordination` PostgreSQL's). */
const PACKAGE_OF: Readonly<Record<ErrorOwner, string>> = {
  'json-rpc': 'protocol',
  host: 'host',
  session: 'session',
  query: 'query',
  search: 'search',
  persistence: 'persistence',
  projection: 'projection',
  'projection-cache': 'projection-cache',
  subagent: 'subagent',
  agent: 'agent',
  postgres: 'postgres',
  runtime: 'runtime',
  import: 'import',
  cli: 'cli',
  client: 'client',
};

describe('the error table', () => {
  it("has every CLI code thrown by one of the CLI's classes, each by one", () => {
    // One declaration numbers the CLI's block; each class takes a typed part of it.
    const byClass = [
      ...STRAND_MCP_ERROR_CODES,
      ...DATA_LOCK_ERROR_CODES,
      ...REMOTE_HOST_ERROR_CODES,
      ...STRAND_ACP_ERROR_CODES,
      ...SERVE_ERROR_CODES,
      ...EXPORT_ERROR_CODES,
    ];
    expect([...byClass].sort()).toEqual([...CLI_ERROR_CODES].sort());
  });

  const claims = Object.entries(UNIONS).flatMap(([pkg, codes]) => codes.map((code) => ({ pkg, code })));

  it('lists every code of every package union, and no code belongs to two unions', () => {
    const missing = claims.filter(({ code }) => !Object.hasOwn(ERROR_TABLE, code));
    expect(missing).toEqual([]);
    const seen = new Map<string, string[]>();
    for (const { pkg, code } of claims) seen.set(code, [...(seen.get(code) ?? []), pkg]);
    expect([...seen].filter(([, pkgs]) => pkgs.length > 1)).toEqual([]);
  });

  it('has no entry that no package union claims, and each entry names the package that claims it', () => {
    const claimedBy = new Map(claims.map(({ pkg, code }) => [code, pkg]));
    const wrong = Object.entries(ERROR_TABLE)
      .filter(([code, entry]) => claimedBy.get(code) !== PACKAGE_OF[entry.owner])
      .map(([code, entry]) => ({ code, owner: entry.owner, claimedBy: claimedBy.get(code) }));
    expect(wrong).toEqual([]);
  });

  it('gives every code its own integer, and every code outside the -32xxx set one in its owner block', () => {
    const byRpc = new Map<number, string[]>();
    for (const [code, entry] of Object.entries(ERROR_TABLE)) {
      expect(Number.isInteger(entry.rpc)).toBe(true);
      byRpc.set(entry.rpc, [...(byRpc.get(entry.rpc) ?? []), code]);
      const block = OWNER_BLOCKS[entry.owner];
      if (entry.rpc <= -33000) {
        expect({
          code,
          inBlock: block !== undefined && entry.rpc <= block && entry.rpc > block - 100,
        }).toEqual({
          code,
          inBlock: true,
        });
      }
    }
    expect([...byRpc.values()].filter((codes) => codes.length > 1)).toEqual([]);
  });

  it('docs/protocol.md lists each code with its own integer, and every code a command on one session may answer', () => {
    const doc = readFileSync(path.join(REPO, 'docs', 'protocol.md'), 'utf8');
    const rows = [...doc.matchAll(/^\| ([A-Z][A-Z_]+) \| (-\d+) \|/gm)].map(([, code, rpc]) => ({
      code: code!,
      rpc: Number(rpc),
    }));
    expect(rows.length).toBeGreaterThan(40);
    const wrong = rows.filter(({ code, rpc }) => ERROR_TABLE[code as keyof typeof ERROR_TABLE]?.rpc !== rpc);
    expect(wrong).toEqual([]);
    // What the commands on one session answer (docs/protocol.md, "Commands on one session never
    // refuse each other"): each is in the table a client reads.
    const documented = new Set(rows.map(({ code }) => code));
    const commandRefusals = [
      'AGENT_BUSY',
      'SESSION_READ_ONLY',
      'HOST_CHILD_SESSION_READ_ONLY',
      'SESSION_OWNED_ELSEWHERE',
      'SESSION_WRITE_FAILED',
      'PERSISTENCE_IO',
      'AGENT_PERSISTENCE_FAILED',
      'AGENT_MODEL_UNAVAILABLE',
      'AGENT_PRESET_UNAVAILABLE',
      'AGENT_MODEL_FAILED',
      'AGENT_PROMOTION_STALE',
      'AGENT_CANCELLED',
      'AGENT_CLOSED',
      'HOST_MODEL_UNKNOWN',
      'HOST_PRESET_UNKNOWN',
      'SESSION_QUERY_NOT_FOUND',
      'SESSION_FORK_CUT_INVALID',
    ];
    expect(commandRefusals.filter((code) => !documented.has(code))).toEqual([]);
  });
});
