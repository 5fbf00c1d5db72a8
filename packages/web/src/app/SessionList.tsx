import { useCallback, useEffect, useState } from 'react';
import {
  Badge,
  Box,
  Group,
  Loader,
  Mark,
  ScrollArea,
  Stack,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { applySessionList } from '@strand/client';
import type { SearchResult, SessionListRow } from '@strand/protocol';
import { describeError, formatTime, harnessName, isRecord, snippetParts } from './format.js';
import { useConnectionState, useProjectionVersions, useStrand } from './hooks.js';

export interface OpenRequest {
  readonly id: string;
  /** The session is a subagent child (read-only); `undefined` when not known yet. */
  readonly child?: boolean;
}

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

function SessionRows({
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

function SearchResults({
  query,
  onOpen,
  rows,
}: {
  query: string;
  onOpen: (request: OpenRequest) => void;
  rows: readonly SessionListRow[];
}): React.JSX.Element {
  const { connection } = useStrand();
  const [results, setResults] = useState<{ query: string; results: readonly SearchResult[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    const timer = setTimeout(() => {
      connection.call('session.search', { query, limit: 20 }).then(
        (answer) => {
          if (!current) return;
          setResults({ query, results: answer.results });
          setError(null);
        },
        (failure: unknown) => {
          if (current) setError(describeError(failure));
        },
      );
    }, 250);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [connection, query]);
  const childIds = new Set(rows.filter((row) => row.header.origin === 'subagent').map((row) => row.id));
  return (
    <ScrollArea style={{ flex: 1 }} data-testid="search-results">
      {error !== null && (
        <Text c="red" size="sm">
          {error}
        </Text>
      )}
      {results === null || results.query !== query ? (
        <Group gap="xs">
          <Loader size="xs" /> <Text size="sm">Searching…</Text>
        </Group>
      ) : results.results.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="search-empty">
          No matches.
        </Text>
      ) : (
        <Stack gap={6}>
          {results.results.map((result) => (
            <UnstyledButton
              key={result.sessionId}
              data-testid="search-result"
              data-session-id={result.sessionId}
              onClick={() =>
                onOpen(
                  childIds.has(result.sessionId)
                    ? { id: result.sessionId, child: true }
                    : { id: result.sessionId },
                )
              }
              p={6}
              style={{ borderRadius: 4, border: '1px solid var(--mantine-color-gray-3)' }}
            >
              <Text size="xs" fw={600}>
                {result.sessionId}
              </Text>
              {result.hits.slice(0, 3).map((hit) => (
                <Text size="xs" key={hit.seq} data-testid="search-snippet">
                  <Text span c="dimmed" size="xs">
                    #{hit.seq}{' '}
                  </Text>
                  {snippetParts(hit.snippet).map((part, index) =>
                    part.highlighted ? (
                      <Mark key={index}>{part.text}</Mark>
                    ) : (
                      <span key={index}>{part.text}</span>
                    ),
                  )}
                </Text>
              ))}
            </UnstyledButton>
          ))}
        </Stack>
      )}
    </ScrollArea>
  );
}
