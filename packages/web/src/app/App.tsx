import { useCallback, useState } from 'react';
import { AppShell, Badge, Box, Group, Stack, Text, Title } from '@mantine/core';
import type { ConnectionState } from '@strand/client';
import type { SessionListRow } from '@strand/protocol';
import { useConnectionState } from './hooks.js';
import { NewSession } from './NewSession.js';
import { SessionList, type OpenRequest } from './SessionList.js';
import { SessionView } from './SessionView.js';
import { SubagentTree } from './SubagentTree.js';

const STATE_COLOR: Record<ConnectionState, string> = {
  connecting: 'yellow',
  open: 'green',
  reconnecting: 'orange',
  closed: 'red',
};

export function App(): React.JSX.Element {
  const state = useConnectionState();
  const [open, setOpen] = useState<OpenRequest | null>(null);
  const [refreshKey, setRefreshKey] = useState(0);
  const [childIds, setChildIds] = useState<ReadonlySet<string>>(new Set());
  const onRows = useCallback((rows: readonly SessionListRow[]) => {
    setChildIds(new Set(rows.filter((row) => row.header.origin === 'subagent').map((row) => row.id)));
  }, []);
  const openSession = useCallback(
    (request: OpenRequest) => setOpen({ id: request.id, child: request.child ?? childIds.has(request.id) }),
    [childIds],
  );
  const onChildDetected = useCallback(
    (id: string) => setOpen((current) => (current?.id === id ? { id, child: true } : current)),
    [],
  );
  const child = open?.child === true;

  return (
    <AppShell
      header={{ height: 48 }}
      navbar={{ width: 340, breakpoint: 0 }}
      aside={{ width: 300, breakpoint: 0 }}
      padding="sm"
    >
      <AppShell.Header>
        <Group h="100%" px="sm" justify="space-between">
          <Title order={4}>Strand</Title>
          <Badge color={STATE_COLOR[state]} data-testid="connection-state" data-state={state}>
            {state}
          </Badge>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="sm">
        <Stack gap="xs" h="100%">
          <Group justify="space-between">
            <Text fw={600}>Sessions</Text>
            <NewSession
              onCreated={(id) => {
                setRefreshKey((n) => n + 1);
                setOpen({ id, child: false });
              }}
            />
          </Group>
          <Box style={{ flex: 1, minHeight: 0 }}>
            <SessionList
              selectedId={open?.id ?? null}
              onOpen={openSession}
              refreshKey={refreshKey}
              onRows={onRows}
            />
          </Box>
        </Stack>
      </AppShell.Navbar>
      <AppShell.Main style={{ height: '100vh', display: 'flex', flexDirection: 'column' }}>
        <Box style={{ flex: 1, minHeight: 0 }}>
          {open === null ? (
            <Text c="dimmed">Pick a session on the left, or start a new one.</Text>
          ) : (
            <SessionView
              key={`${open.id}:${String(child)}`}
              sessionId={open.id}
              child={child}
              onChildDetected={onChildDetected}
            />
          )}
        </Box>
      </AppShell.Main>
      <AppShell.Aside p="sm">
        {open === null ? (
          <Text size="sm" c="dimmed">
            No session open.
          </Text>
        ) : (
          <SubagentTree key={open.id} rootId={open.id} onOpen={openSession} />
        )}
      </AppShell.Aside>
    </AppShell>
  );
}
