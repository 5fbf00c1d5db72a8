import { useCallback, useEffect, useState } from 'react';
import { Group, Loader, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { applySessionList } from '@strand/client';
import type { SessionListRow } from '@strand/protocol';
import { describeError } from './format.js';
import { useConnectionState, useStrand } from './hooks.js';
import type { OpenRequest } from './open-request.js';
import { SearchResults } from './SearchResults.js';
import { SessionRows } from './SessionRows.js';

export type { OpenRequest } from './open-request.js';

interface Props {
  readonly selectedId: string | null;
  readonly onOpen: (request: OpenRequest) => void;
  /** Bumped by the app to ask for a fresh list (e.g. after creating a session). */
  readonly refreshKey: number;
  readonly onRows: (rows: readonly SessionListRow[]) => void;
}

const LIST_REFRESH_MS = 4000;

/** The session list (hints through the projection store) and the search box. */
export function SessionList({ selectedId, onOpen, refreshKey, onRows }: Props): React.JSX.Element {
  const { connection } = useStrand();
  const state = useConnectionState();
  const [rows, setRows] = useState<readonly SessionListRow[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [query, setQuery] = useState('');

  const load = useCallback(async (): Promise<void> => {
    try {
      const { sessions } = await connection.call('session.list', { limit: 200 });
      setRows(sessions);
      setError(null);
      onRows(sessions);
    } catch (failure) {
      setError(describeError(failure));
    }
  }, [connection, onRows]);

  const { store } = useStrand();
  useEffect(() => {
    if (rows !== null) applySessionList(store, rows);
  }, [store, rows]);

  useEffect(() => {
    if (state !== 'open') return undefined;
    void load();
    const timer = setInterval(() => void load(), LIST_REFRESH_MS);
    return () => clearInterval(timer);
  }, [state, load, refreshKey]);

  return (
    <Stack gap="xs" h="100%">
      <TextInput
        placeholder="Search sessions…"
        value={query}
        onChange={(event) => setQuery(event.currentTarget.value)}
        data-testid="search-input"
        aria-label="Search sessions"
      />
      {query.trim() !== '' ? (
        <SearchResults query={query.trim()} onOpen={onOpen} rows={rows ?? []} />
      ) : (
        <ScrollArea style={{ flex: 1 }} data-testid="session-list">
          {error !== null && (
            <Text c="red" size="sm">
              {error}
            </Text>
          )}
          {rows === null ? (
            <Group gap="xs">
              <Loader size="xs" /> <Text size="sm">Loading sessions…</Text>
            </Group>
          ) : (
            <SessionRows rows={rows} selectedId={selectedId} onOpen={onOpen} />
          )}
        </ScrollArea>
      )}
    </Stack>
  );
}
