import { useEffect, useMemo, useState } from 'react';
import { Box, Group, Loader, Stack, Switch, Text, TextInput } from '@mantine/core';
import type { SessionListRow } from '@strand/protocol';
import type { OpenRequest } from '../shared/open-request.js';
import { ProjectHarnessSelect } from '../shared/ProjectHarnessSelect.js';
import { SearchResults } from '../search/SearchResults.js';
import { SessionRows } from './SessionRows.js';
import { readListFilter, writeListFilter, type ListFilter } from '../shared/routing/list-filter-params.js';
import { setSearchQuery, useSearchQuery } from '../shared/routing/navigation.js';
import { listEntry } from './list-entry.js';
import { filterChoices } from './session-tree.js';
import { useSessionCosts } from '../usage/use-session-costs.js';
import { useSessionList } from './use-session-list.js';

export type { OpenRequest } from '../shared/open-request.js';

interface Props {
  readonly selectedId: string | null;
  readonly onOpen: (request: OpenRequest) => void;
  /** Bumped by the app to ask for a fresh list (e.g. after creating a session). */
  readonly refreshKey: number;
  readonly onRows: (rows: readonly SessionListRow[]) => void;
  /**
   * Filters another page asked the list to show (the usage page's project, harness and day links):
   * applied each time a new request object arrives, over whatever the list had.
   */
  readonly filterRequest?: { readonly filter: ListFilter } | null;
}

const UNKNOWN = { known: false } as const;

/**
 * The session list (hints through the projection store), its filters and the search box. Rows are
 * read in pages as the person scrolls and kept current by `list.changed` (`useSessionList`): no
 * polling.
 */
export function SessionList({
  selectedId,
  onOpen,
  refreshKey,
  onRows,
  filterRequest = null,
}: Props): React.JSX.Element {
  // The query lives in the address (`?q=`): a reload keeps it, back/forward bring it back.
  const query = useSearchQuery();
  // The filters start from the address (`?cwd=`, `?harness=`) and are written back to it.
  const [cwd, setCwd] = useState<string | null>(() => readListFilter(location.search).cwd);
  const [harness, setHarness] = useState<string | null>(() => readListFilter(location.search).harness);
  const [flat, setFlat] = useState(false);
  useEffect(() => {
    if (filterRequest === null) return;
    setCwd(filterRequest.filter.cwd);
    setHarness(filterRequest.filter.harness);
    // The filtered list, not search results over it.
    setSearchQuery('');
  }, [filterRequest]);
  const filter = useMemo<ListFilter>(() => ({ cwd, harness }), [cwd, harness]);
  useEffect(() => {
    const search = writeListFilter(location.search, filter);
    // Replace, not push: a filter is not a place Back should return to.
    if (search !== location.search)
      history.replaceState(history.state, '', `${location.pathname}${search}${location.hash}`);
  }, [filter]);

  const { rows, error, loadMore } = useSessionList(refreshKey);
  const costs = useSessionCosts(rows, refreshKey);
  useEffect(() => {
    if (rows !== null) onRows(rows);
  }, [rows, onRows]);

  // The choices depend on headers only, so no store hint is read for them.
  const choices = useMemo(() => filterChoices((rows ?? []).map((row) => listEntry(row, UNKNOWN))), [rows]);

  return (
    <Stack gap="xs" h="100%">
      <TextInput
        placeholder="Search sessions…"
        value={query}
        onChange={(event) => setSearchQuery(event.currentTarget.value)}
        data-testid="search-input"
        aria-label="Search sessions"
      />
      {query.trim() !== '' ? (
        <SearchResults query={query.trim()} onOpen={onOpen} rows={rows ?? []} />
      ) : (
        <>
          <Group gap={6} wrap="nowrap" data-testid="list-filters">
            <ProjectHarnessSelect
              projects={choices.cwds}
              harnesses={choices.harnesses}
              value={filter}
              onChange={(next) => {
                setCwd(next.cwd);
                setHarness(next.harness);
              }}
              names={{ project: 'Filter by project', harness: 'Filter by harness' }}
              testIdPrefix="filter"
            />
          </Group>
          <Switch
            size="xs"
            label="Show subagents in the list, not nested"
            checked={flat}
            onChange={(event) => setFlat(event.currentTarget.checked)}
            data-testid="filter-flat"
          />
          {error !== null && (
            <Text c="red" size="sm">
              {error}
            </Text>
          )}
          <Box style={{ flex: 1, minHeight: 0 }}>
            {rows === null ? (
              <Group gap="xs">
                <Loader size="xs" /> <Text size="sm">Loading sessions…</Text>
              </Group>
            ) : (
              <SessionRows
                rows={rows}
                costs={costs}
                filter={filter}
                flat={flat}
                selectedId={selectedId}
                onOpen={onOpen}
                onNearEnd={loadMore}
              />
            )}
          </Box>
        </>
      )}
    </Stack>
  );
}
