import { defined } from '@strand/session';
import { Command, Option } from 'commander';
import { USAGE_GROUPS, type UsageGroup, type UsageRow } from '@strand/protocol';
import { renderTable } from '../output/table.js';
import { readPricingFile } from '../pricing-file.js';
import { withConnection } from '../remote.js';
import { common, harnessOption, type Common } from './common-options.js';

interface UsageOptions extends Common {
  by: UsageGroup;
  since?: string;
  until?: string;
  harness?: string;
  cwd?: string;
  pricing?: string;
}

const GROUP_TITLES: Readonly<Record<UsageGroup, string>> = {
  day: 'Day',
  week: 'Week of',
  month: 'Month',
  session: 'Session',
  project: 'Project',
  model: 'Model',
  harness: 'Harness',
};

export function usageCommand(): Command {
  return common(
    new Command('usage').description('token use and cost over time, sessions, projects, models or harnesses'),
  )
    .addOption(new Option('--by <group>', 'one row per').choices(USAGE_GROUPS).default('day'))
    .option('--since <date>', 'from this local day (YYYY-MM-DD) or instant (ISO time with a zone)')
    .option('--until <date>', 'through this local day (YYYY-MM-DD) or until this instant')
    .addOption(harnessOption())
    .option('--cwd <folder>', 'only sessions whose project folder (header cwd) is exactly this')
    .option(
      '--pricing <file>',
      'prices (USD per million tokens) overriding the bundled table for the models it names',
    )
    .action(async (options: UsageOptions) => {
      const prices = options.pricing === undefined ? undefined : await readPricingFile(options.pricing);
      const summary = await withConnection(options, (c) =>
        c.call('usage.summary', {
          by: options.by,
          timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
          ...defined({
            since: options.since,
            until: options.until,
            harness: options.harness,
            cwd: options.cwd,
            prices,
          }),
        }),
      );
      if (options.json === true) return void console.log(JSON.stringify(summary));
      if (summary.rows.length === 0) return void console.log('No usage recorded.');
      for (const line of usageTable(
        summary.rows,
        { ...summary.totals, key: '', label: 'Total', models: [] },
        options.by,
      ))
        console.log(line);
      const unpriced = summary.totals.unpricedModels;
      if (unpriced.length > 0)
        console.log(
          `\n* leaves out models without a price (${unpriced.join(', ')}); --pricing <file> adds them`,
        );
      console.log(`Prices: ${summary.pricing}. Days in ${summary.timeZone}.`);
    });
}

/**
 * The rows and their total as aligned columns, numbers right-aligned, cost last; a "Reported"
 * column (what the harnesses themselves reported, Claude Code's `cost-state`) only when some
 * row has such a figure.
 */
export function usageTable(rows: readonly UsageRow[], total: UsageRow, by: UsageGroup): string[] {
  const n = (v: number) => v.toLocaleString('en-US');
  const cost = (row: UsageRow) =>
    row.totalCost === null ? '—' : `$${row.totalCost.toFixed(2)}${row.unpricedModels.length > 0 ? '*' : ''}`;
  const reported = [...rows, total].some((row) => typeof row.reportedCost === 'number');
  const reportedCost = (row: UsageRow) =>
    typeof row.reportedCost === 'number' ? `$${row.reportedCost.toFixed(2)}` : '—';
  const line = (row: UsageRow) => [
    row.label,
    n(row.inputTokens),
    n(row.outputTokens),
    n(row.cacheCreationTokens),
    n(row.cacheReadTokens),
    n(row.totalTokens),
    cost(row),
    ...(reported ? [reportedCost(row)] : []),
  ];
  const header = [
    GROUP_TITLES[by],
    'Input',
    'Output',
    'Cache write',
    'Cache read',
    'Total',
    'Cost',
    ...(reported ? ['Reported'] : []),
  ];
  const right = { align: 'right' as const };
  return renderTable(
    [header, ...rows.map(line), line(total)],
    [{ max: 48 }, right, right, right, right, right, right, ...(reported ? [right] : [])],
  );
}
