import { useEffect, useState, useSyncExternalStore } from 'react';
import { ActionIcon, Badge, Box, Button, Group, Loader, Stack, Text, UnstyledButton } from '@mantine/core';
import type { SubagentListEntry, SubagentTimingValue } from '@strand/protocol';
import { activeMs, describeError, formatDuration } from '../shared/format.js';
import { useConnectionState, useStrand } from '../shared/hooks.js';
import { useProjection } from '../shared/use-projection.js';
import { NO_LABEL, subagentName } from './subagent-name.js';
import type { OpenRequest } from '../shared/open-request.js';
import { LevelLoader } from './subagent-level.js';

/**
 * Why a diagnostic row has no identity, in words (the same as `strand agents` says them).
 * `unsupported` is in the wire enum but never produced (SYSTEM.md §8).
 */
const DIAGNOSTIC_WORDS: Readonly<Record<string, string>> = {
  corrupt: 'its subagent descriptor is missing or unreadable',
  unavailable: 'its log could not be read',
  unsupported: 'written by a newer version',
};

/**
 * The subagent tree of one session: `subagent.list { scope: 'children' }` per level, loaded when
 * expanded. Every shown level lists again when the open session's follower hears that a child
 * appeared or settled (`follow.subagents`, through `strand.subagentChanges`) — the panel never
 * guesses rows from events — and when the connection opens again. A level keeps its rows while it
 * lists again and when that fails (`LevelLoader`).
 */
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
      <Level rootId={rootId} parentId={rootId} depth={0} onOpen={onOpen} />
    </Stack>
  );
}

/** One level's loader, listing on mount, on every (re)opened connection and on each announcement. */
function useLevel(rootId: string, parentId: string): LevelLoader {
  const { connection, subagentChanges } = useStrand();
  const connected = useConnectionState() === 'open';
  const [loader] = useState(
    () =>
      new LevelLoader(async () => {
        const { rows, timing } = await connection.call('subagent.list', { id: parentId, scope: 'children' });
        return { rows, timing: timing ?? {} };
      }, describeError),
  );
  useEffect(() => loader.open(), [loader]);
  useEffect(() => {
    if (connected) loader.refresh();
  }, [loader, connected]);
  useEffect(() => {
    // A descendant's change is announced for the root (the host tells it up a live chain), and
    // for this level's own session when some view follows it.
    const refresh = (): void => loader.refresh();
    const offRoot = subagentChanges.subscribe(rootId, refresh);
    const offOwn = parentId === rootId ? undefined : subagentChanges.subscribe(parentId, refresh);
    return () => {
      offRoot();
      offOwn?.();
    };
  }, [loader, subagentChanges, rootId, parentId]);
  return loader;
}

function Level({
  rootId,
  parentId,
  depth,
  onOpen,
}: {
  rootId: string;
  parentId: string;
  depth: number;
  onOpen: (request: OpenRequest) => void;
}): React.JSX.Element {
  const loader = useLevel(rootId, parentId);
  const state = useSyncExternalStore(loader.subscribe, () => loader.state);
  const retry = (): void => loader.refresh();

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
      <Group gap={6} pl={indent} data-testid="tree-error">
        <Text size="xs" c="red">
          Could not list the subagents: {state.message}
        </Text>
        <Button size="compact-xs" variant="light" onClick={retry} aria-label="Retry listing the subagents">
          Retry
        </Button>
      </Group>
    );
  const { rows, timing } = state.listing;
  return (
    <Stack gap={2} data-testid="tree-level" data-parent-id={parentId} data-refreshing={state.refreshing}>
      {rows.length === 0 && (
        <Text size="xs" c="dimmed" pl={indent} data-testid="tree-empty">
          {depth === 0 ? 'No subagents.' : 'No children.'}
        </Text>
      )}
      {rows.map((row) => (
        <Row
          key={row.id}
          rootId={rootId}
          row={row}
          depth={depth}
          onOpen={onOpen}
          onRetry={retry}
          timing={timing[row.id]?.values.subagentTiming as SubagentTimingValue | null | undefined}
        />
      ))}
      {state.refreshError !== null && (
        <Group gap={6} pl={indent} wrap="nowrap" data-testid="tree-refresh-error">
          <Text size="xs" c="red">
            Could not refresh the subagents ({state.refreshError}); showing the last list.
          </Text>
          <Button
            size="compact-xs"
            variant="light"
            onClick={retry}
            aria-label="Retry listing the subagents"
            data-testid="tree-refresh-retry"
          >
            Retry
          </Button>
        </Group>
      )}
    </Stack>
  );
}

function Row({
  rootId,
  row,
  depth,
  onOpen,
  onRetry,
  timing,
}: {
  rootId: string;
  row: SubagentListEntry;
  depth: number;
  onOpen: (request: OpenRequest) => void;
  onRetry: () => void;
  /** The `subagentTiming` hint; undefined when unknown. */
  timing?: SubagentTimingValue | null | undefined;
}): React.JSX.Element {
  const [expanded, setExpanded] = useState(false);
  const title = useProjection(row.id, 'title');
  const indent = depth * 16;
  if (row.kind === 'diagnostic') {
    const words = DIAGNOSTIC_WORDS[row.reason] ?? 'it could not be listed';
    // Two lines: the panel is narrow, and the reason must stay readable in full.
    return (
      <Stack
        gap={2}
        pl={indent + 22}
        data-testid="tree-diagnostic"
        data-session-id={row.id}
        data-reason={row.reason}
      >
        <Group gap={6} wrap="nowrap">
          <Badge size="xs" color="red" style={{ flexShrink: 0, overflow: 'visible' }}>
            {row.reason}
          </Badge>
          <UnstyledButton
            onClick={() => onOpen({ id: row.id, child: true })}
            style={{ minWidth: 0, flex: 1 }}
            aria-label={`Open subagent ${row.id}`}
          >
            <Text size="xs" truncate>
              {row.id}
            </Text>
          </UnstyledButton>
          <Button
            size="compact-xs"
            variant="light"
            onClick={onRetry}
            data-testid="tree-retry"
            aria-label={`Retry listing ${row.id}`}
            style={{ flexShrink: 0 }}
          >
            Retry
          </Button>
        </Group>
        <Text size="xs" c="dimmed" data-testid="tree-diagnostic-words">
          {words}
        </Text>
      </Stack>
    );
  }
  const name = subagentName(row.label, title);
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
        <UnstyledButton
          onClick={() => onOpen({ id: row.id, child: true })}
          style={{ minWidth: 0 }}
          aria-label={`Open subagent ${name ?? row.id}`}
          data-testid="tree-open"
        >
          <Text size="xs" fw={500} truncate data-testid="tree-label">
            {name ?? (
              <Text span size="xs" c="dimmed" fs="italic">
                {NO_LABEL}
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
      {expanded && <Level rootId={rootId} parentId={row.id} depth={depth + 1} onOpen={onOpen} />}
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
