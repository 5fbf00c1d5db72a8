import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Badge, Box, Group, Text, UnstyledButton } from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { SessionListRow } from '@strand/protocol';
import { formatRelative, formatTime } from '../shared/format.js';
import { harnessLabel } from '../shared/harness-labels.js';
import { useStrand } from '../shared/hooks.js';
import { useProjectionRows } from '../shared/use-projection.js';
import { listEntry } from './list-entry.js';
import { listKeyAction } from './list-keys.js';
import type { OpenRequest } from '../shared/open-request.js';
import {
  activityOf,
  buildTree,
  flatRows,
  visibleRows,
  type Detached,
  type ListEntry,
  type VisibleRow,
} from './session-tree.js';
import { ForkBadge } from '../shared/ForkBadge.js';
import type { ListFilter } from '../shared/routing/list-filter-params.js';
import { NO_LABEL, subagentName } from '../subagents/subagent-name.js';
import { useNow } from '../shared/use-now.js';
import { useSubagentLabels } from '../subagents/use-subagent-labels.js';
import { costLabel, type RowCost } from '../usage/session-costs.js';

/** Every row is this tall (title line, activity line): fixed, so 10,000 rows cost no measuring. */
const ROW_HEIGHT = 52;
const INDENT = 16;
/** Rows from the end of what is read at which the next page is asked for (a few screens ahead). */
const NEAR_END_ROWS = 40;
/** Relative times ("3 min ago") are recomputed this often. */
const NOW_TICK_MS = 30_000;

interface Props {
  readonly rows: readonly SessionListRow[];
  /** The host's cost of each session that has one (`usage.summary` by session). */
  readonly costs: ReadonlyMap<string, RowCost>;
  readonly filter: ListFilter;
  /** "Show subagents": every session flat, children included, instead of nested under parents. */
  readonly flat: boolean;
  readonly selectedId: string | null;
  readonly onOpen: (request: OpenRequest) => void;
  /** Asked when the rows in view come near the end of the rows read (or none pass the filters). */
  readonly onNearEnd?: () => void;
}

/**
 * The session list as a virtualized tree (WAI-ARIA tree view: the container holds focus and
 * points at the active row with `aria-activedescendant`, since a row scrolled away is not in the
 * DOM). Children are collapsed under their parents by default; order and nesting come from
 * `session-tree.ts`.
 */
export function SessionRows({
  rows,
  costs,
  filter,
  flat,
  selectedId,
  onOpen,
  onNearEnd,
}: Props): React.JSX.Element {
  const { store } = useStrand();
  const ids = useMemo(() => rows.map((row) => row.id), [rows]);
  const projected = useProjectionRows(ids);
  const byId = useMemo(() => new Map(rows.map((row) => [row.id, row])), [rows]);
  const entries = useMemo(
    () => rows.map((row) => listEntry(row, store.get(row.id, 'listMetadata'))),
    // `projected` changes whenever a store row of a listed session does.
    [rows, store, projected],
  );
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const visible = useMemo(
    () => (flat ? flatRows(entries, filter) : visibleRows(buildTree(entries, filter), expanded)),
    [entries, filter, flat, expanded],
  );
  useRevealSelected(selectedId, entries, flat, setExpanded);

  const [activeId, setActiveId] = useState<string | null>(null);
  const [focused, setFocused] = useState(false);
  // The focus ring on the active row: for keyboard use, not after a click (`:focus-visible`).
  const [ring, setRing] = useState(false);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: visible.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    getItemKey: (index) => visible[index]?.entry.id ?? index,
  });
  const now = useNow(NOW_TICK_MS);
  const inView = virtualizer.getVirtualItems();
  // The next page is read while the person scrolls toward the end; a filter that hides every row
  // read so far keeps reading until something passes or nothing is left.
  const lastInView = inView.at(-1)?.index ?? -1;
  useEffect(() => {
    if (lastInView >= visible.length - NEAR_END_ROWS) onNearEnd?.();
  }, [lastInView, visible.length, onNearEnd]);
  const childParents = [
    ...new Set(
      inView.flatMap((item) => {
        const header = byId.get(visible[item.index]?.entry.id ?? '')?.header;
        return header?.origin === 'subagent' && header.parentSession !== undefined
          ? [header.parentSession]
          : [];
      }),
    ),
  ].sort();
  const labels = useSubagentLabels(childParents);

  const open = useCallback(
    (id: string) => onOpen({ id, child: byId.get(id)?.header.origin === 'subagent' }),
    [byId, onOpen],
  );
  const toggle = useCallback((id: string, to: boolean) => {
    setExpanded((current) => {
      if (current.has(id) === to) return current;
      const next = new Set(current);
      if (to) next.add(id);
      else next.delete(id);
      return next;
    });
  }, []);
  const activeIndex = activeId === null ? -1 : visible.findIndex((row) => row.entry.id === activeId);

  const onKeyDown = (event: React.KeyboardEvent): void => {
    const action = listKeyAction(visible, activeIndex === -1 ? null : activeId, event.key);
    if (action.kind === 'none') return;
    event.preventDefault();
    setRing(true);
    switch (action.kind) {
      case 'move': {
        setActiveId(action.id);
        const index = visible.findIndex((row) => row.entry.id === action.id);
        if (index !== -1) virtualizer.scrollToIndex(index, { align: 'auto' });
        return;
      }
      case 'expand':
        return toggle(action.id, true);
      case 'collapse':
        return toggle(action.id, false);
      case 'open':
        return open(action.id);
      default: {
        const exhaustive: never = action;
        return exhaustive;
      }
    }
  };

  return (
    <div
      ref={scrollRef}
      role="tree"
      aria-label="Sessions"
      tabIndex={0}
      data-testid="session-list"
      data-row-count={visible.length}
      aria-activedescendant={activeIndex === -1 ? undefined : rowDomId(activeId!)}
      onKeyDown={onKeyDown}
      onFocus={(event) => {
        setFocused(true);
        setRing(event.currentTarget.matches(':focus-visible'));
        // Focus enters at the open session when it is shown, else at the first row.
        if (activeIndex === -1) {
          const start = visible.find((row) => row.entry.id === selectedId) ?? visible[0];
          if (start !== undefined) setActiveId(start.entry.id);
        }
      }}
      onBlur={() => {
        setFocused(false);
        setRing(false);
      }}
      style={{ height: '100%', overflowY: 'auto', outline: 'none', contain: 'strict' }}
    >
      {visible.length === 0 ? (
        <Text size="sm" c="dimmed" p={6} data-testid="session-list-empty">
          {rows.length === 0 ? 'No sessions yet.' : 'No sessions match the filters.'}
        </Text>
      ) : (
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {inView.map((item) => {
            const row = visible[item.index]!;
            const listed = byId.get(row.entry.id);
            if (listed === undefined) return null;
            return (
              <SessionRow
                key={item.key}
                row={row}
                listed={listed}
                cost={costs.get(row.entry.id)}
                label={labels.get(row.entry.id)}
                top={item.start}
                now={now}
                selected={row.entry.id === selectedId}
                active={focused && row.entry.id === activeId}
                ring={ring && row.entry.id === activeId}
                onClick={() => {
                  setActiveId(row.entry.id);
                  open(row.entry.id);
                }}
                onToggle={() => toggle(row.entry.id, !row.expanded)}
              />
            );
          })}
        </div>
      )}
    </div>
  );
}

/** When the open session is a nested child (opened from a link or the subagent panel), expand its ancestors once. */
function useRevealSelected(
  selectedId: string | null,
  entries: readonly ListEntry[],
  flat: boolean,
  setExpanded: (update: (current: ReadonlySet<string>) => ReadonlySet<string>) => void,
): void {
  const revealed = useRef<string | null>(null);
  useEffect(() => {
    if (flat || selectedId === null || revealed.current === selectedId) return;
    const parents = new Map(entries.map((entry) => [entry.id, entry.parentId]));
    if (!parents.has(selectedId)) return;
    revealed.current = selectedId;
    const ancestors: string[] = [];
    for (let id = parents.get(selectedId); id != null && parents.has(id) && !ancestors.includes(id); ) {
      ancestors.push(id);
      id = parents.get(id);
    }
    if (ancestors.length === 0) return;
    setExpanded((current) =>
      ancestors.every((id) => current.has(id)) ? current : new Set([...current, ...ancestors]),
    );
  }, [selectedId, entries, flat, setExpanded]);
}

/** A DOM id for a row (session ids may hold characters an id attribute should not). */
function rowDomId(sessionId: string): string {
  return `session-row-${encodeURIComponent(sessionId)}`;
}

const DETACHED_LABEL: Record<Detached, { label: string; title: string }> = {
  'parent-missing': {
    label: 'parent not listed',
    title: 'a subagent whose parent session is not in this list',
  },
  'parent-filtered': {
    label: 'parent filtered out',
    title: 'a subagent whose parent session the filters hide',
  },
  cycle: { label: 'parent loop', title: 'the parent links of these sessions form a loop' },
};

function SessionRow({
  row,
  listed,
  cost,
  label,
  top,
  now,
  selected,
  active,
  ring,
  onClick,
  onToggle,
}: {
  row: VisibleRow;
  listed: SessionListRow;
  cost: RowCost | undefined;
  /** A child's descriptor label, once its parent's children were listed. */
  label: string | null | undefined;
  top: number;
  now: number;
  selected: boolean;
  active: boolean;
  ring: boolean;
  onClick: () => void;
  onToggle: () => void;
}): React.JSX.Element {
  const { store } = useStrand();
  const id = row.entry.id;
  const title = store.get(id, 'title');
  const child = listed.header.origin === 'subagent';
  const name = child ? subagentName(label, title) : undefined;
  const titleText =
    name ??
    (child && label !== undefined
      ? NO_LABEL
      : !title.known
        ? '(title unknown)'
        : typeof title.value === 'string'
          ? title.value
          : '(untitled)');
  const fork = listed.header.forkedFrom;
  const activity = activityLabel(row.entry, now);
  const source = listed.header.source;
  const costText = cost === undefined ? null : costLabel(cost);
  return (
    <div
      id={rowDomId(id)}
      role="treeitem"
      aria-level={row.depth + 1}
      aria-posinset={row.position}
      aria-setsize={row.siblings}
      aria-expanded={row.childCount > 0 ? row.expanded : undefined}
      aria-selected={selected}
      aria-label={`${titleText}, ${activity.text}${costText === null ? '' : `, cost ${costText.text}`}`}
      onClick={onClick}
      data-testid="session-row"
      data-session-id={id}
      data-state={listed.busy ? 'running' : 'idle'}
      data-depth={row.depth}
      data-active={active ? 'true' : undefined}
      style={{
        position: 'absolute',
        top: 0,
        left: 0,
        width: '100%',
        height: ROW_HEIGHT,
        transform: `translateY(${top}px)`,
        padding: `6px 6px 6px ${6 + row.depth * INDENT}px`,
        boxSizing: 'border-box',
        borderRadius: 4,
        cursor: 'pointer',
        background: selected ? 'var(--mantine-color-blue-light)' : undefined,
        outline: ring ? '2px solid var(--mantine-color-blue-filled)' : undefined,
        outlineOffset: -2,
      }}
    >
      <Group gap={4} wrap="nowrap" justify="space-between" h="100%">
        <Group gap={4} wrap="nowrap" style={{ minWidth: 0 }}>
          {row.childCount > 0 ? (
            <UnstyledButton
              tabIndex={-1}
              data-testid="row-toggle"
              aria-label={`${row.expanded ? 'Collapse' : 'Expand'} ${row.childCount} subagent${row.childCount === 1 ? '' : 's'}`}
              onClick={(event) => {
                event.stopPropagation();
                onToggle();
              }}
              style={{ width: 14, flexShrink: 0, fontSize: 10, textAlign: 'center' }}
            >
              {row.expanded ? '▼' : '▶'}
            </UnstyledButton>
          ) : (
            <Box w={14} style={{ flexShrink: 0 }} />
          )}
          <Box style={{ minWidth: 0 }}>
            <Text
              size="sm"
              truncate
              data-testid="session-title"
              {...(name !== undefined
                ? { fw: 500 }
                : !title.known
                  ? { c: 'dimmed', fs: 'italic' }
                  : typeof title.value === 'string'
                    ? { fw: 500 }
                    : { c: 'dimmed' })}
            >
              {titleText}
            </Text>
            <Text size="xs" c="dimmed" truncate>
              <span data-testid="activity" data-source={activity.source} title={activity.title}>
                {activity.text}
              </span>
              {costText !== null && (
                <>
                  {' · '}
                  <span data-testid="row-cost" className="strand-num-figure" title={costText.title}>
                    {costText.text}
                  </span>
                </>
              )}{' '}
              · {id}
            </Text>
          </Box>
        </Group>
        <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
          {row.childCount > 0 && (
            <Badge
              size="xs"
              variant="light"
              data-testid="child-count"
              title={`${row.childCount} subagent sessions`}
            >
              {row.childCount}
            </Badge>
          )}
          {source !== undefined && (
            <Badge
              size="xs"
              color="gray"
              variant="light"
              data-testid="source-marker"
              title={`imported from ${harnessLabel(source.harness)}, which owns it: read-only here`}
            >
              {harnessLabel(source.harness)}
            </Badge>
          )}
          {row.detached !== null && (
            <Badge
              size="xs"
              color="yellow"
              variant="light"
              data-testid="orphan-marker"
              data-reason={row.detached}
              title={DETACHED_LABEL[row.detached].title}
            >
              {DETACHED_LABEL[row.detached].label}
            </Badge>
          )}
          {fork !== undefined && <ForkBadge parent={fork} />}
          {child && (
            <Badge size="xs" variant="outline">
              child
            </Badge>
          )}
          {/* Running or nothing: never "live" — a session is attached merely while some page
              holds it open interactively, which says nothing about work in progress. */}
          {listed.ownedElsewhere === true ? (
            <Badge
              size="xs"
              color="grape"
              data-testid="elsewhere-marker"
              title="another host runs this session's agent"
            >
              on another host
            </Badge>
          ) : listed.busy ? (
            <Badge size="xs" color="orange" data-testid="running-marker">
              running
            </Badge>
          ) : null}
        </Group>
      </Group>
    </div>
  );
}

/**
 * The row's time label and which fact it is (the list's sort key, `activityOf`): "last prompt
 * 3 min ago" or "created 2 h ago"; the title attribute has the absolute time and the rule.
 */
function activityLabel(
  entry: ListEntry,
  now: number,
): { text: string; title: string; source: 'last-prompt' | 'created' } {
  const activity = activityOf(entry);
  const when = formatRelative(activity.at, now);
  const absolute = formatTime(activity.at);
  if (activity.source === 'last-prompt')
    return {
      text: `last prompt ${when}`,
      title: `last prompt ${absolute} (the list sorts by this)`,
      source: 'last-prompt',
    };
  const why =
    entry.lastPromptAt === null
      ? 'no prompt yet, so the list sorts by creation time'
      : 'last prompt unknown (no list hint yet), so the list sorts by creation time';
  const text = entry.lastPromptAt === null ? `created ${when}` : `created ${when} · last prompt unknown`;
  return { text, title: `created ${absolute}; ${why}`, source: 'created' };
}
