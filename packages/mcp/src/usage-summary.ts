import { defined } from '@strand/session';
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { USAGE_GROUPS, harnessFilterSchema, type UsageGroup, type UsageRow } from '@strand/protocol';
import { z } from 'zod';
import type { StrandReader } from './reader.js';
import { textResult, toolCall } from './tool-result.js';

/** The usage rows as text lines (the `strand usage` table: the CLI owns it and hands it in). */
export type UsageTable = (rows: readonly UsageRow[], total: UsageRow, by: UsageGroup) => string[];

export function registerUsageSummary(
  server: McpServer,
  read: StrandReader,
  usageTable: UsageTable,
): RegisteredTool {
  return server.registerTool(
    'usage_summary',
    {
      title: 'Token use and cost',
      description:
        "Tokens (fresh input, output, cache writes, cache reads) and cost in USD of every session Strand holds, grouped by day, week, month, session, project, model or harness. Each session counts only its own model responses (a fork's inherited part is its parent's). Cost is computed from a maintained price table; a model it does not price shows — and is named.",
      inputSchema: {
        by: z.enum(USAGE_GROUPS).optional().describe('one row per (default day)'),
        since: z
          .string()
          .max(40)
          .optional()
          .describe('from this day (YYYY-MM-DD) or instant (ISO time with a zone)'),
        until: z.string().max(40).optional().describe('through this day (YYYY-MM-DD) or until this instant'),
        harness: harnessFilterSchema
          .optional()
          .describe('only sessions from this harness (strand = Strand itself)'),
        cwd: z
          .string()
          .min(1)
          .max(4096)
          .optional()
          .describe('only sessions whose working folder is exactly this'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      toolCall(async () => {
        const by = args.by ?? 'day';
        const summary = await read((c) =>
          c.call('usage.summary', {
            by,
            ...defined({ since: args.since, until: args.until, harness: args.harness, cwd: args.cwd }),
          }),
        );
        if (summary.rows.length === 0) return textResult('No usage recorded.');
        const table = usageTable(
          summary.rows,
          { ...summary.totals, key: '', label: 'Total', models: [] },
          by,
        );
        const unpriced = summary.totals.unpricedModels;
        return textResult(
          [
            ...table,
            '',
            `Prices: ${summary.pricing}; periods in ${summary.timeZone}.`,
            ...(unpriced.length === 0 ? [] : [`* leaves out models without a price: ${unpriced.join(', ')}`]),
          ].join('\n'),
        );
      }),
  );
}
