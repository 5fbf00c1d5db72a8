import { useCallback, useEffect, useState } from 'react';
import { ActionIcon, Badge, Box, Button, Group, Loader, Stack, Text, UnstyledButton } from '@mantine/core';
import type { ProjectionHints, SubagentListEntry, SubagentTimingValue } from '@strand/protocol';
import { activeMs, describeError, formatDuration } from './format.js';
import { useConnectionState, useStrand } from './hooks.js';
import type { OpenRequest } from './SessionList.js';

type LevelState =
  | { kind: 'loading' }
  | { kind: 'error'; message: string }
  | { kind: 'ready'; rows: readonly SubagentListEntry[]; timing: { readonly [id: string]: ProjectionHints } };

/** The subagent tree of one session: `subagent.list { scope: 'children' }` per level, loaded when expanded. */
export function SubagentTree({
  rootId,
  onOpen,
}: {
  rootId: string;
  onOpen: (request: OpenRequest) => void;
}): React.JSX.Element {
  return (
    <Stack gap={4} data-testid="subagent-tree">
      <Text size="sm" fw={600}>
        Subagents
      </Text>
      <Level parentId={rootId} depth={0} onOpen={onOpen} />
    </Stack>
  );
}

function Level({
  parentId,
  depth,
  onOpen,
}: {
  parentId: string;
  depth: number;
  onOpen: (request: OpenRequest) => void;
}): React.JSX.Element {
  const { connection } = useStrand();
  const connected = useConnectionState() === 'open';
  const [state, setState] = useState<LevelState>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  useEffect(() => {
    if (!connected) return undefined;
    let current = true;
    setState({ kind: 'loading' });
    connection.call('subagent.list', { id: parentId, scope: 'children' }).then(
      ({ rows, timing }) => {
        if (current) setState({ kind: 'ready', rows, timing: timing ?? {} });
      },
      (failure: unknown) => {
        if (current) setState({ kind: 'error', message: describeError(failure) });
      },
    );
    return () => {
      current = false;
    };
  }, [connection, parentId, attempt, connected]);

  const indent = depth * 16;
  if (state.kind === 'loading')
    return (
      <Group gap={6} pl={indent} data-testid="tree-loading">
        <Loader size={12} />{' '}
        <Text size="xs" c="dimmed">
          Loading…
        </Text>
      </Group>
    );
  if (state.kind === 'error')
    return (
      <Group gap={6} pl={indent}>
        <Text size="xs" c="red">
          {state.message}
        </Text>
        <Button size="compact-xs" variant="light" onClick={retry}>
          Retry
        </Button>
      </Group>
    );
  if (state.rows.length === 0)
    return (
      <Text size="xs" c="dimmed" pl={indent} data-testid="tree-empty">
        {depth === 0 ? 'No subagents.' : 'No children.'}
      </Text>
    );
  return (
    <Stack gap={2}>
      {state.rows.map((row) => (
        <Row
          key={row.id}
          row={row}
          depth={depth}
          onOpen={onOpen}
          onRetry={retry}
          timing={state.timing[row.id]?.values.subagentTiming as SubagentTimingValue | null | undefined}
        />
      ))}
    </Stack>
  );
}

function Row({
  row,
  depth,
  onOpen,
  onRetry,
  timing,
}: {
  row: SubagentListEntry;
  depth: number;
  onOpen: (request: OpenRequest) => void;
  onRetry: () => void;
  /** The `subagentTiming` hint; undefined when unknown. */
  timing?: SubagentTimingValue | null | undefined;
}): React.JSX.Element {
  const [expanded, setExpanded] = useState(false);
  const indent = depth * 16;
  if (row.kind === 'diagnostic') {
    return (
      <Group gap={6} pl={indent + 22} data-testid="tree-diagnostic" data-session-id={row.id} wrap="nowrap">
        <Badge size="xs" color="red">
          {row.reason}
        </Badge>
        <Text size="xs" truncate>
          {row.id}
        </Text>
        <Button size="compact-xs" variant="light" onClick={onRetry} data-testid="tree-retry">
          Retry
        </Button>
      </Group>
    );
  }
  return (
    <Box>
      <Group gap={4} pl={indent} wrap="nowrap" data-testid="tree-row" data-session-id={row.id}>
        {row.hasChildren ? (
          <ActionIcon
            size="xs"
            variant="subtle"
            onClick={() => setExpanded((value) => !value)}
            aria-label={expanded ? 'Collapse' : 'Expand'}
            data-testid="tree-chevron"
          >
            {expanded ? '▾' : '▸'}
          </ActionIcon>
        ) : (
          <Box w={18} />
        )}
        <UnstyledButton onClick={() => onOpen({ id: row.id, child: true })} style={{ minWidth: 0 }}>
          <Text size="xs" fw={500} truncate data-testid="tree-label">
            {row.label ?? (
              <Text span size="xs" c="dimmed" fs="italic">
                (no label)
              </Text>
            )}
          </Text>
        </UnstyledButton>
        <Badge size="xs" variant="outline">
          {row.mode}
        </Badge>
        <Badge size="xs" color={row.activity === 'running' ? 'orange' : 'gray'} variant="light">
          {row.activity}
        </Badge>
        {timing !== undefined && timing !== null && (
          <ActiveTime timing={timing} running={row.activity === 'running'} />
        )}
      </Group>
      {expanded && <Level parentId={row.id} depth={depth + 1} onOpen={onOpen} />}
    </Box>
  );
}

/** Active time from the timing projection; ticks every second while the child runs. */
function ActiveTime({
  timing,
  running,
}: {
  timing: SubagentTimingValue;
  running: boolean;
}): React.JSX.Element {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running || timing.active === null) return undefined;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [running, timing.active]);
  return (
    <Text size="xs" c="dimmed" data-testid="tree-active-time">
      {formatDuration(activeMs(timing, running ? now : undefined))}
    </Text>
  );
}
