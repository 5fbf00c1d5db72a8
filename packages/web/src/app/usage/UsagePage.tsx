import '@mantine/charts/styles.css';
import { useCallback, useEffect, useMemo, useState, type MouseEvent } from 'react';
import { Alert, Box, Button, Group, Loader, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { describeError } from '../shared/format.js';
import { harnessLabel } from '../shared/harness-labels.js';
import { useConnectionState, useStrand } from '../shared/hooks.js';
import { followLink, navigate } from '../shared/routing/navigation.js';
import { routeHref, sessionHref } from '../shared/routing/routes.js';
import type { ListFilter } from '../shared/routing/list-filter-params.js';
import { UsageChart } from './UsageChart.js';
import { UsageFilters } from './UsageFilters.js';
import type { UsageFilter } from '../shared/routing/usage-filter-params.js';
import { dayLabel, formatCost, formatCostShort, formatTokens, formatTokensShort } from './usage-format.js';
import { loadUsage, type UsageData } from './usage-load.js';
import { costChart, tokenChart } from './usage-series.js';
import { UsageTable, type RowLink } from './UsageTable.js';

interface Props {
  readonly filter: UsageFilter;
  /** Shows the session list under `filter` (the app sets the list's filters and navigates). */
  readonly onShowSessions: (filter: ListFilter) => void;
}

type Load =
  | { readonly status: 'loading'; readonly data: UsageData | null }
  | { readonly status: 'error'; readonly message: string; readonly data: UsageData | null }
  | { readonly status: 'ready'; readonly data: UsageData };

/** The zone the host groups days in: the reader's own, so "today" is the reader's today. */
const TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * `/usage`: tokens and cost per day, by project, session and harness, all from `usage.summary`
 * (usage-load.ts). Costs are the host's; the page only draws them. The default export is what
 * App.tsx loads lazily: the chart library stays out of the first paint of the session pages.
 */
export default function UsagePage({ filter, onShowSessions }: Props): React.JSX.Element {
  const { connection } = useStrand();
  const state = useConnectionState();
  const [load, setLoad] = useState<Load>({ status: 'loading', data: null });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (state !== 'open') return undefined;
    let current = true;
    setLoad((previous) => ({ status: 'loading', data: previous.data }));
    loadUsage((params) => connection.call('usage.summary', params), filter, TIME_ZONE).then(
      (data) => {
        if (current) setLoad({ status: 'ready', data });
      },
      (failure: unknown) => {
        if (current)
          setLoad((previous) => ({ status: 'error', message: describeError(failure), data: previous.data }));
      },
    );
    // A newer filter's answer wins; an older one arriving late is dropped.
    return () => {
      current = false;
    };
  }, [connection, state, filter, attempt]);

  // Replace, not push: a filter is not a place Back should return to (as in the session list).
  const setFilter = useCallback(
    (next: UsageFilter) => navigate({ kind: 'usage', filter: next }, { replace: true }),
    [],
  );

  const listLink = useCallback(
    (list: ListFilter): RowLink => ({
      href: routeHref({ kind: 'home', filter: list }),
      onClick: (event: MouseEvent<HTMLAnchorElement>) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        onShowSessions(list);
      },
    }),
    [onShowSessions],
  );
  // The session list filters by project and harness but not by date: a day leads to the list
  // under the page's other filters (its sessions are there, among others of other days).
  const dayList = useMemo<ListFilter>(() => ({ cwd: filter.cwd, harness: filter.harness }), [filter]);

  const data = load.data;
  const charts = useMemo(
    () =>
      data === null
        ? null
        : { tokens: tokenChart(data.days.rows), cost: costChart(data.days.rows, data.dayModels) },
    [data],
  );

  return (
    <Box h="100%" style={{ overflowY: 'auto' }} data-testid="usage-page" data-status={load.status}>
      <Stack gap="md" maw={1400} pb="xl">
        <Group justify="space-between" align="flex-end">
          <Box>
            <Title order={2}>Usage</Title>
            <Text size="sm" c="dimmed">
              Each session&apos;s own tokens and their cost, by day in {TIME_ZONE}.
            </Text>
          </Box>
          <Group gap="xs">
            {load.status === 'loading' && data !== null && <Loader size="xs" aria-label="Updating" />}
            <Button
              variant="default"
              size="xs"
              onClick={() => setAttempt((n) => n + 1)}
              data-testid="usage-refresh"
            >
              Refresh
            </Button>
          </Group>
        </Group>
        <UsageFilters value={filter} projects={data?.projects ?? []} onChange={setFilter} />
        {load.status === 'error' && (
          <Alert color="red" title="Usage could not be loaded" data-testid="usage-error">
            {load.message}
          </Alert>
        )}
        {data === null || charts === null ? (
          load.status === 'loading' && (
            <Group gap="xs">
              <Loader size="xs" /> <Text size="sm">Loading usage…</Text>
            </Group>
          )
        ) : data.days.rows.length === 0 ? (
          <Paper withBorder p="xl" data-testid="usage-empty">
            <Text fw={600}>No usage recorded yet</Text>
            <Text size="sm" c="dimmed">
              {Object.values(filter).some((v) => v !== null)
                ? 'No session under these filters has token usage. Clear a filter to see more.'
                : 'Token usage appears here once a session has an answer from a model.'}
            </Text>
          </Paper>
        ) : (
          <>
            <Totals data={data} />
            <SimpleGrid cols={{ base: 1, xl: 2 }}>
              <UsageChart
                title="Tokens per day"
                description="Fresh input, output, cache writes and cache reads. Click a day for its sessions."
                chart={charts.tokens}
                format={(value) => formatTokens(value)}
                formatAxis={(value) => formatTokensShort(value)}
                onDay={() => onShowSessions(dayList)}
                testId="usage-chart-tokens"
                empty="No tokens in this range."
              />
              <UsageChart
                title="Cost per day"
                description="USD by model, as the host priced it. Click a day for its sessions."
                chart={charts.cost}
                format={(value) => formatCost(value)}
                formatAxis={(value) => formatCostShort(value)}
                onDay={() => onShowSessions(dayList)}
                testId="usage-chart-cost"
                empty="Nothing in this range is priced: its models have no price in the table."
              />
            </SimpleGrid>
            <SimpleGrid cols={{ base: 1, lg: 2 }}>
              <UsageTable
                title="Top sessions"
                group="session"
                rows={data.sessions}
                limit={15}
                labelHeader="Session"
                withSessions={false}
                linkOf={(row) => ({
                  href: sessionHref(row.key),
                  onClick: (event) => followLink(event, { kind: 'session', id: row.key }),
                })}
              />
              <Stack gap="md">
                <UsageTable
                  title="Top projects"
                  group="project"
                  rows={
                    filter.cwd === null
                      ? data.projects
                      : data.projects.filter((row) => row.key === filter.cwd)
                  }
                  limit={10}
                  labelHeader="Project"
                  // "(no project)" has no folder the list could filter on: shown, not linked.
                  linkOf={(row) =>
                    row.key === '' ? undefined : listLink({ cwd: row.key, harness: filter.harness })
                  }
                />
                <UsageTable
                  title="By harness"
                  group="harness"
                  rows={
                    filter.harness === null
                      ? data.harnesses
                      : data.harnesses.filter((row) => row.key === filter.harness)
                  }
                  limit={10}
                  labelHeader="Harness"
                  labelOf={(row) => harnessLabel(row.key)}
                  linkOf={(row) => listLink({ cwd: filter.cwd, harness: row.key })}
                />
              </Stack>
            </SimpleGrid>
            <UsageTable
              title="Days"
              group="day"
              rows={[...data.days.rows].reverse()}
              limit={31}
              labelHeader="Day"
              labelOf={(row) => `${dayLabel(row.key)} (${row.key})`}
              linkOf={() => listLink(dayList)}
            />
          </>
        )}
      </Stack>
    </Box>
  );
}

/** The range's sums, and which models no price covers (their tokens count, their cost is unknown). */
function Totals({ data }: { data: UsageData }): React.JSX.Element {
  const { totals, pricing } = data.days;
  const figures: [string, string, string][] = [
    ['Cost', formatCost(totals.totalCost), 'usage-total-cost'],
    ['Tokens', formatTokens(totals.totalTokens), 'usage-total-tokens'],
    ['Sessions', formatTokens(totals.sessions), 'usage-total-sessions'],
  ];
  return (
    <Stack gap={4}>
      <SimpleGrid cols={{ base: 1, xs: 3 }} maw={720}>
        {figures.map(([label, value, testId]) => (
          <Paper key={label} withBorder p="sm">
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              {label}
            </Text>
            <Text fz={24} fw={700} className="strand-num-figure" data-testid={testId}>
              {value}
            </Text>
          </Paper>
        ))}
      </SimpleGrid>
      <Text size="xs" c="dimmed" data-testid="usage-pricing">
        Prices: {pricing}.
        {totals.unpricedModels.length > 0 &&
          ` Not priced, so left out of costs (shown as — when nothing else is priced): ${totals.unpricedModels.join(', ')}.`}
      </Text>
    </Stack>
  );
}
