import { BarChart } from '@mantine/charts';
import { Paper, Text, Title } from '@mantine/core';
import { dayLabel } from './usage-format.js';
import type { DayChart } from './usage-series.js';

/**
 * One stacked bar per day. A click on a day's column calls `onDay` with its key; the day table
 * below the charts holds the same links for the keyboard (an SVG bar takes no focus).
 */
export function UsageChart({
  title,
  description,
  chart,
  format,
  formatAxis,
  onDay,
  testId,
  empty,
}: {
  title: string;
  description: string;
  chart: DayChart;
  /** How a value reads in the tooltip. */
  format: (value: number) => string;
  /** How a value reads on the y axis (shorter). */
  formatAxis: (value: number) => string;
  onDay: (day: string) => void;
  testId: string;
  /** Said instead of the chart when it has no series (e.g. no cost: nothing in the range is priced). */
  empty: string;
}): React.JSX.Element {
  return (
    <Paper withBorder p="md" data-testid={testId}>
      <Title order={3} size="h5">
        {title}
      </Title>
      <Text size="xs" c="dimmed" mb="sm">
        {description}
      </Text>
      {chart.series.length === 0 ? (
        <Text size="sm" c="dimmed" h={260}>
          {empty}
        </Text>
      ) : (
        <BarChart
          h={260}
          data={[...chart.data]}
          dataKey="day"
          type="stacked"
          series={chart.series.map((s) => ({ ...s }))}
          withLegend
          legendProps={{ verticalAlign: 'bottom' }}
          valueFormatter={format}
          xAxisProps={{ tickFormatter: (day: string) => dayLabel(day), minTickGap: 16 }}
          yAxisProps={{ tickFormatter: formatAxis, width: 64 }}
          maxBarWidth={48}
          style={{ cursor: 'pointer' }}
          barChartProps={{
            onClick: (state: { activeLabel?: string | undefined } | null) => {
              if (typeof state?.activeLabel === 'string') onDay(state.activeLabel);
            },
          }}
        />
      )}
    </Paper>
  );
}
