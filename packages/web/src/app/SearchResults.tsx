import { useEffect, useState } from 'react';
import { Group, Loader, Mark, ScrollArea, Stack, Text, UnstyledButton } from '@mantine/core';
import type { SearchResult, SessionListRow } from '@strand/protocol';
import { describeError, snippetParts } from './format.js';
import { useStrand } from './hooks.js';
import type { OpenRequest } from './open-request.js';

/** Search results for the box above the list: each session's hits, which open it. */
export function SearchResults({
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
