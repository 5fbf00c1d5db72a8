import { Badge, Box, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import type { SessionListRow } from '@strand/protocol';
import { formatTime, harnessName, isRecord } from './format.js';
import { useProjectionVersions, useStrand } from './hooks.js';
import type { OpenRequest } from './open-request.js';

/** The rows of the session list: title, last activity, where it came from, whether it runs. */
export function SessionRows({
  rows,
  selectedId,
  onOpen,
}: {
  rows: readonly SessionListRow[];
  selectedId: string | null;
  onOpen: (request: OpenRequest) => void;
}): React.JSX.Element {
  const { store } = useStrand();
  useProjectionVersions(rows.map((row) => row.id));
  return (
    <Stack gap={4}>
      {rows.map((row) => {
        const title = store.get(row.id, 'title');
        const meta = store.get(row.id, 'listMetadata');
        const lastPromptAt =
          meta.known && isRecord(meta.value) && typeof meta.value.lastPromptAt === 'number'
            ? meta.value.lastPromptAt
            : null;
        const child = row.header.origin === 'subagent';
        return (
          <UnstyledButton
            key={row.id}
            onClick={() => onOpen({ id: row.id, child })}
            data-testid="session-row"
            data-session-id={row.id}
            data-state={row.busy ? 'running' : 'idle'}
            p={6}
            style={{
              borderRadius: 4,
              background: row.id === selectedId ? 'var(--mantine-color-blue-light)' : undefined,
            }}
          >
            <Group gap={6} wrap="nowrap" justify="space-between">
              <Box style={{ minWidth: 0 }}>
                {!title.known ? (
                  <Text size="sm" c="dimmed" fs="italic" data-testid="session-title">
                    (title unknown)
                  </Text>
                ) : typeof title.value === 'string' ? (
                  <Text size="sm" fw={500} truncate data-testid="session-title">
                    {title.value}
                  </Text>
                ) : (
                  <Text size="sm" c="dimmed" data-testid="session-title">
                    (untitled)
                  </Text>
                )}
                <Text size="xs" c="dimmed" truncate>
                  {row.id} ·{' '}
                  {lastPromptAt === null
                    ? `created ${formatTime(row.header.createdAt)}`
                    : `last prompt ${formatTime(lastPromptAt)}`}
                </Text>
              </Box>
              <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
                {row.header.source !== undefined && (
                  <Badge
                    size="xs"
                    color="gray"
                    variant="light"
                    data-testid="source-marker"
                    title={`imported from ${harnessName(row.header.source.harness)}, which owns it: read-only here`}
                  >
                    {harnessName(row.header.source.harness)}
                  </Badge>
                )}
                {child && (
                  <Badge size="xs" variant="outline" style={{ flexShrink: 0 }}>
                    child
                  </Badge>
                )}
                {/* Running or nothing: never "live" — a session is attached merely while some page
                    holds it open interactively, which says nothing about work in progress. */}
                {row.ownedElsewhere === true ? (
                  <Badge
                    size="xs"
                    color="grape"
                    data-testid="elsewhere-marker"
                    title="another host runs this session's agent"
                  >
                    on another host
                  </Badge>
                ) : row.busy ? (
                  <Badge size="xs" color="orange" data-testid="running-marker">
                    running
                  </Badge>
                ) : null}
              </Group>
            </Group>
          </UnstyledButton>
        );
      })}
    </Stack>
  );
}
