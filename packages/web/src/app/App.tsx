import { lazy, Suspense, useCallback, useState } from 'react';
import { Anchor, AppShell, Box, Burger, Button, Group, Loader, Stack, Text, Title } from '@mantine/core';
import type { SessionListRow } from '@strand/protocol';
import { ConnectionBadge } from './shared/ConnectionBadge.js';
import { NewSession } from './session-view/NewSession.js';
import type { OpenRequest } from './shared/open-request.js';
import { followLink, navigate, useRoute } from './shared/routing/navigation.js';
import type { ListFilter } from './shared/routing/list-filter-params.js';
import { SessionList } from './session-list/SessionList.js';
import { SessionView } from './session-view/SessionView.js';
import { REGION, SkipLinks, type Region } from './shared/SkipLinks.js';
import { SubagentAside, SubagentsToggle } from './subagents/SubagentAside.js';
import { ThemeToggle } from './shared/theme/ThemeToggle.js';
import { NO_USAGE_FILTER } from './shared/routing/usage-filter-params.js';
import './shared/layout.css';

// Its own chunk: the chart library is only loaded by a reader who opens /usage, so the session
// pages' first paint does not wait for it.
const UsagePage = lazy(() => import('./usage/UsagePage.js'));

/** `ids` with `more` added; the same set when nothing is new, so React skips the render. */
function withIds(ids: ReadonlySet<string>, more: Iterable<string>): ReadonlySet<string> {
  let next: Set<string> | undefined;
  for (const id of more)
    if (!ids.has(id)) {
      next ??= new Set(ids);
      next.add(id);
    }
  return next ?? ids;
}

/**
 * The shell: the address bar says what is open (`/sessions/<id>?seq=N`, see routing/routes.ts),
 * every "open" is a navigation, so back/forward and reload keep the place. Below 768 px the
 * session list is a drawer behind the burger; below 1200 px the subagent panel is one behind
 * its button, so at 1024 px the transcript keeps the width the panel would take.
 */
export function App(): React.JSX.Element {
  const route = useRoute();
  const open = route.kind === 'session' ? route : null;
  const usage = route.kind === 'usage' ? route : null;
  const [refreshKey, setRefreshKey] = useState(0);
  // Who is a subagent child, once known (a list row, a subagent row, the view's header): sticky,
  // so a child that scrolls out of the capped list does not become writable.
  const [childIds, setChildIds] = useState<ReadonlySet<string>>(new Set());
  // Drawers at narrow widths: the list starts open on the start page (a phone has nothing else).
  const [navOpened, setNavOpened] = useState(open === null);
  const [asideOpened, setAsideOpened] = useState(false);
  const onRows = useCallback((rows: readonly SessionListRow[]) => {
    const children = rows.filter((row) => row.header.origin === 'subagent').map((row) => row.id);
    setChildIds((ids) => withIds(ids, children));
  }, []);
  const openSession = useCallback((request: OpenRequest) => {
    if (request.child === true) setChildIds((ids) => withIds(ids, [request.id]));
    navigate(
      request.seq === undefined
        ? { kind: 'session', id: request.id }
        : { kind: 'session', id: request.id, seq: request.seq },
    );
    setNavOpened(false);
    setAsideOpened(false);
  }, []);
  // A new object per request, so asking for the same filters twice still applies them.
  const [listRequest, setListRequest] = useState<{ readonly filter: ListFilter } | null>(null);
  const showSessions = useCallback((filter: ListFilter) => {
    setListRequest({ filter });
    navigate({ kind: 'home', filter });
    setNavOpened(true);
    setAsideOpened(false);
  }, []);
  const onChildDetected = useCallback((id: string) => setChildIds((ids) => withIds(ids, [id])), []);
  const reveal = useCallback((region: Region) => {
    setNavOpened(region === 'sessions');
    setAsideOpened(region === 'subagents');
  }, []);
  const child = open !== null && childIds.has(open.id);

  return (
    <>
      <SkipLinks reveal={reveal} />
      <AppShell
        header={{ height: 48 }}
        // The usage page takes the full width on a desktop (its charts need it); the burger still
        // shows the list on a phone.
        navbar={{
          width: { base: 300, lg: 340 },
          breakpoint: 'sm',
          collapsed: { mobile: !navOpened, desktop: usage !== null },
        }}
        aside={{ width: 300, breakpoint: 'lg', collapsed: { mobile: !asideOpened, desktop: usage !== null } }}
        padding="sm"
      >
        <AppShell.Header>
          <Group h="100%" px="sm" justify="space-between" wrap="nowrap">
            <Group gap="xs" wrap="nowrap">
              <Burger
                opened={navOpened}
                onClick={() => reveal(navOpened ? 'transcript' : 'sessions')}
                hiddenFrom="sm"
                size="sm"
                aria-label={navOpened ? 'Hide the session list' : 'Show the session list'}
                aria-expanded={navOpened}
                aria-controls={REGION.sessions}
                data-testid="nav-toggle"
              />
              <Title order={4}>
                <Anchor
                  href="/"
                  underline="never"
                  c="inherit"
                  onClick={(event) => followLink(event, { kind: 'home' })}
                >
                  Strand
                </Anchor>
              </Title>
              <Button
                component="a"
                href="/usage"
                size="compact-sm"
                variant={usage !== null ? 'light' : 'subtle'}
                aria-current={usage !== null ? 'page' : undefined}
                onClick={(event: React.MouseEvent<HTMLAnchorElement>) =>
                  followLink(event, { kind: 'usage', filter: NO_USAGE_FILTER })
                }
                data-testid="nav-usage"
              >
                Usage
              </Button>
            </Group>
            <Group gap="xs" wrap="nowrap">
              <SubagentsToggle
                opened={asideOpened}
                onToggle={() => reveal(asideOpened ? 'transcript' : 'subagents')}
                hiddenFrom="lg"
                hidden={usage !== null}
              />
              <ThemeToggle />
              <ConnectionBadge />
            </Group>
          </Group>
        </AppShell.Header>
        <AppShell.Navbar p="sm" id={REGION.sessions} tabIndex={-1} aria-label="Sessions" data-testid="navbar">
          <Stack gap="xs" h="100%">
            <Group justify="space-between">
              <Text fw={600}>Sessions</Text>
              <NewSession
                onCreated={(id) => {
                  setRefreshKey((n) => n + 1);
                  openSession({ id, child: false });
                }}
              />
            </Group>
            <Box style={{ flex: 1, minHeight: 0 }}>
              <SessionList
                selectedId={open?.id ?? null}
                onOpen={openSession}
                refreshKey={refreshKey}
                onRows={onRows}
                filterRequest={listRequest}
              />
            </Box>
          </Stack>
        </AppShell.Navbar>
        <AppShell.Main
          id={REGION.transcript}
          tabIndex={-1}
          style={{ height: '100dvh', display: 'flex', flexDirection: 'column' }}
          data-testid="main"
        >
          <Box style={{ flex: 1, minHeight: 0 }}>
            {route.kind === 'not-found' ? (
              <Text c="dimmed" data-testid="route-not-found">
                No page at {route.path}.{' '}
                <Anchor href="/" onClick={(event) => followLink(event, { kind: 'home' })}>
                  Go to the start page
                </Anchor>
                .
              </Text>
            ) : usage !== null ? (
              <Suspense
                fallback={
                  <Group gap="xs">
                    <Loader size="xs" /> <Text size="sm">Loading usage…</Text>
                  </Group>
                }
              >
                <UsagePage filter={usage.filter} onShowSessions={showSessions} />
              </Suspense>
            ) : open === null ? (
              <Text c="dimmed">Pick a session from the list, or start a new one.</Text>
            ) : (
              <SessionView
                key={`${open.id}:${String(child)}`}
                sessionId={open.id}
                child={child}
                targetSeq={open.seq}
                onChildDetected={onChildDetected}
              />
            )}
          </Box>
        </AppShell.Main>
        <SubagentAside rootId={open?.id ?? null} onOpen={openSession} />
      </AppShell>
    </>
  );
}
