import { defined } from '@strand/session';
import { useEffect, useState } from 'react';
import { Box, Group, Loader, Mark, ScrollArea, Stack, Text, UnstyledButton } from '@mantine/core';
import type { SearchHit, SearchResult, SessionListRow } from '@strand/protocol';
import { describeError, snippetParts } from '../shared/format.js';
import { useStrand } from '../shared/hooks.js';
import type { OpenRequest } from '../shared/open-request.js';
import { NO_NARROWING, SearchFilters, type SearchNarrowing } from './SearchFilters.js';

/**
 * Quiet time after the last keystroke before a search is sent: a person typing sends one search
 * per pause, not one per letter (the host answers a type-ahead search in ≤ 100 ms p95,
 * `bench:query`'s `searchTypeAheadP95Ms`).
 */
const TYPE_AHEAD_DELAY_MS = 150;

interface Answer {
  readonly key: string;
  readonly results: readonly SearchResult[];
}

/**
 * Search results for the box above the list, with the project and harness narrowing controls:
 * each session's title (its id when untitled) and its hits; the title opens the session at its best
 * hit, each hit opens it at that hit's event (`OpenRequest.seq`).
 */
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
  const [narrowing, setNarrowing] = useState<SearchNarrowing>(NO_NARROWING);
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [error, setError] = useState<string | null>(null);
  // One key per (query, narrowing): an answer for an older key is never shown as the current one.
  const key = JSON.stringify([query, narrowing.cwd, narrowing.harness]);
  useEffect(() => {
    let current = true;
    const timer = setTimeout(() => {
      connection
        .call('session.search', {
          query,
          limit: 20,
          ...defined({ cwd: narrowing.cwd ?? undefined, harness: narrowing.harness ?? undefined }),
        })
        .then(
          (page) => {
            if (!current) return;
            setAnswer({ key, results: page.results });
            setError(null);
          },
          (failure: unknown) => {
            if (current) setError(describeError(failure));
          },
        );
    }, TYPE_AHEAD_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [connection, query, narrowing, key]);
  const childIds = new Set(rows.filter((row) => row.header.origin === 'subagent').map((row) => row.id));
  const open = (result: SearchResult, hit: SearchHit | undefined): void => {
    const child = childIds.has(result.sessionId);
    onOpen({
      id: result.sessionId,
      ...(child ? { child: true } : {}),
      ...(hit === undefined ? {} : { seq: hit.seq }),
    });
  };
  return (
    <Stack gap={6} style={{ flex: 1, minHeight: 0 }}>
      <SearchFilters rows={rows} value={narrowing} onChange={setNarrowing} />
      <ScrollArea style={{ flex: 1 }} data-testid="search-results">
        {error !== null && (
          <Text c="red" size="sm">
            {error}
          </Text>
        )}
        {answer === null || answer.key !== key ? (
          <Group gap="xs">
            <Loader size="xs" /> <Text size="sm">Searching…</Text>
          </Group>
        ) : answer.results.length === 0 ? (
          <Text size="sm" c="dimmed" data-testid="search-empty">
            No matches.
          </Text>
        ) : (
          <Stack gap={6}>
            {answer.results.map((result) => (
              <Box
                key={result.sessionId}
                data-testid="search-result"
                data-session-id={result.sessionId}
                p={6}
                style={{ borderRadius: 4, border: '1px solid var(--mantine-color-default-border)' }}
              >
                <UnstyledButton
                  data-testid="search-result-title"
                  aria-label={`Open ${result.title ?? result.sessionId}`}
                  onClick={() => open(result, result.hits[0])}
                  style={{ display: 'block', width: '100%' }}
                >
                  <Text size="xs" fw={600} truncate="end">
                    {result.title ?? result.sessionId}
                  </Text>
                  {result.title !== null && (
                    <Text size="xs" c="dimmed" truncate="end">
                      {result.sessionId}
                    </Text>
                  )}
                </UnstyledButton>
                {result.hits.slice(0, 3).map((hit) => (
                  <UnstyledButton
                    key={hit.seq}
                    data-testid="search-snippet"
                    data-seq={hit.seq}
                    aria-label={`Open ${result.title ?? result.sessionId} at event ${hit.seq}`}
                    onClick={() => open(result, hit)}
                    style={{ display: 'block', width: '100%' }}
                  >
                    <Text size="xs" component="span">
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
                  </UnstyledButton>
                ))}
              </Box>
            ))}
          </Stack>
        )}
      </ScrollArea>
    </Stack>
  );
}
