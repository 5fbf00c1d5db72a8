import type { MouseEvent, ReactNode } from 'react';
import { Anchor, Paper, Table, Text, Title } from '@mantine/core';
import type { UsageRow } from '@strand/protocol';
import { formatCost, formatTokens } from './usage-format.js';

/** Where a row leads: a real link (so a middle click opens a tab), followed in the page on a plain click. */
export interface RowLink {
  readonly href: string;
  readonly onClick: (event: MouseEvent<HTMLAnchorElement>) => void;
}

/**
 * A ranked table of one grouping: its label (a link when `linkOf` gives one), sessions, tokens and
 * cost, numbers right-aligned in tabular figures. A cost that leaves out unpriced models is marked
 * `*` with the models in its tooltip; a cost with nothing priced is "—".
 */
export function UsageTable({
  title,
  group,
  rows,
  limit,
  labelHeader,
  labelOf = (row) => row.label,
  linkOf,
  withSessions = true,
}: {
  title: string;
  /** `data-group` of the rows (`day`, `project`, `session`, `harness`), which tests select by. */
  group: string;
  rows: readonly UsageRow[];
  /** Rows shown, most first; the rest are counted under the table. */
  limit: number;
  labelHeader: string;
  labelOf?: (row: UsageRow) => ReactNode;
  linkOf?: (row: UsageRow) => RowLink | undefined;
  withSessions?: boolean;
}): React.JSX.Element {
  const shown = rows.slice(0, limit);
  return (
    <Paper withBorder p="md" data-testid={`usage-table-${group}`}>
      <Title order={3} size="h5" mb="xs">
        {title}
      </Title>
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          No usage recorded yet.
        </Text>
      ) : (
        <Table striped highlightOnHover verticalSpacing={4} fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{labelHeader}</Table.Th>
              {withSessions && <Table.Th className="strand-num">Sessions</Table.Th>}
              <Table.Th className="strand-num">Tokens</Table.Th>
              <Table.Th className="strand-num">Cost</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((row) => {
              const link = linkOf?.(row);
              const label = labelOf(row);
              return (
                <Table.Tr key={row.key} data-testid="usage-row" data-group={group} data-key={row.key}>
                  <Table.Td className="strand-usage-label">
                    {link === undefined ? (
                      label
                    ) : (
                      <Anchor href={link.href} onClick={link.onClick} inherit>
                        {label}
                      </Anchor>
                    )}
                  </Table.Td>
                  {withSessions && <Table.Td className="strand-num">{formatTokens(row.sessions)}</Table.Td>}
                  <Table.Td className="strand-num">{formatTokens(row.totalTokens)}</Table.Td>
                  <Table.Td className="strand-num" data-testid="usage-cost">
                    {formatCost(row.totalCost)}
                    {row.totalCost !== null && row.unpricedModels.length > 0 && (
                      <Text span c="dimmed" title={`Leaves out unpriced: ${row.unpricedModels.join(', ')}`}>
                        *
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
      {rows.length > limit && (
        <Text size="xs" c="dimmed" mt={4}>
          and {rows.length - limit} more
        </Text>
      )}
    </Paper>
  );
}
