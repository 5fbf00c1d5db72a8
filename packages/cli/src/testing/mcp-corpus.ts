import { cpSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import { strand } from './strand-process.js';

/** The Codex fixtures (a parent with a spawned child and a fork), imported beside the demo corpus. */
export const CODEX_FIXTURES = path.resolve(
  fileURLToPath(import.meta.url),
  '../../../../import/src/codex/fixtures/spawn-fork',
);
export const CODEX_PARENT = 'codex-01a00000-0000-7000-8000-000000000001';
export const CODEX_CHILD = 'codex-01a00000-0000-7000-8000-000000000002';

/** Every MCP tool Strand offers, on stdio and at `/mcp`, by name. */
export const STRAND_TOOLS = [
  'list_agents',
  'list_sessions',
  'read_session',
  'search_sessions',
  'usage_summary',
] as const;

/**
 * A data folder under `root` holding what the MCP tests read: with `demo`, the demo corpus
 * (`strand demo`); always the Codex fixtures imported with `strand import`.
 */
export function mcpCorpus(root: string, options: { readonly demo: boolean }): string {
  const data = path.join(root, 'data');
  if (options.demo) expect(strand('demo', '--data', data).code).toBe(0);
  cpSync(CODEX_FIXTURES, path.join(root, 'codex'), { recursive: true });
  const imported = strand('import', 'codex', path.join(root, 'codex'), '--data', data);
  expect(imported.code, imported.stderr).toBe(0);
  return data;
}

/** A tool result's one text. */
export function toolText(result: CallToolResult): string {
  const first = result.content[0];
  if (first?.type !== 'text') throw new Error(`expected text content, got ${JSON.stringify(result.content)}`);
  return first.text;
}
