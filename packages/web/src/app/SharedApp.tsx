import { useCallback, useState } from 'react';
import { AppShell, Group, Text, Title } from '@mantine/core';
import type { SharedGrant } from './shared/access.js';
import { ConnectionBadge } from './shared/ConnectionBadge.js';
import type { OpenRequest } from './shared/open-request.js';
import { navigate, useRoute } from './shared/routing/navigation.js';
import { REGION } from './shared/SkipLinks.js';
import { ThemeToggle } from './shared/theme/ThemeToggle.js';
import { SessionView } from './session-view/SessionView.js';
import { SubagentAside, SubagentsToggle } from './subagents/SubagentAside.js';
import './shared/layout.css';

/**
 * The page a share link opens (`/share`, after the host moved its token into the share cookie):
 * the granted session's view and nothing else of the host — no list, search, usage page or "New
 * session"; the view itself leaves out the composer and the controls (`SharedGrantContext`).
 * The subagent panel is there only when the grant includes the subagents; its rows open a child
 * at its own address (`/sessions/<id>`, which this page also serves), so back returns.
 */
export function SharedApp({ grant }: { grant: SharedGrant }): React.JSX.Element {
  const route = useRoute();
  const id = route.kind === 'session' ? route.id : grant.sessionId;
  const seq = route.kind === 'session' ? route.seq : undefined;
  // Below 992 px the panel (a grant with subagents) is a drawer behind the header's button.
  const [asideOpened, setAsideOpened] = useState(false);
  const openSession = useCallback((request: OpenRequest) => {
    setAsideOpened(false);
    navigate(
      request.seq === undefined
        ? { kind: 'session', id: request.id }
        : { kind: 'session', id: request.id, seq: request.seq },
    );
  }, []);
  const noop = useCallback(() => undefined, []);
  return (
    <AppShell
      header={{ height: 48 }}
      aside={{
        width: 300,
        breakpoint: 'md',
        collapsed: { mobile: !asideOpened, desktop: !grant.descendants },
      }}
      padding="sm"
    >
      <AppShell.Header>
        <Group h="100%" px="sm" justify="space-between" wrap="nowrap">
          <Group gap="xs" wrap="nowrap">
            <Title order={4}>Strand</Title>
            <Text size="sm" c="dimmed" visibleFrom="sm">
              a session shared with you
            </Text>
          </Group>
          <Group gap="xs" wrap="nowrap">
            {grant.descendants && (
              <SubagentsToggle
                opened={asideOpened}
                onToggle={() => setAsideOpened((opened) => !opened)}
                hiddenFrom="md"
              />
            )}
            <ThemeToggle />
            <ConnectionBadge />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Main
        id={REGION.transcript}
        tabIndex={-1}
        style={{ height: '100dvh', display: 'flex', flexDirection: 'column' }}
        data-testid="main"
        data-shared="true"
      >
        <div style={{ flex: 1, minHeight: 0 }}>
          <SessionView
            key={id}
            sessionId={id}
            child={id !== grant.sessionId}
            targetSeq={seq}
            onChildDetected={noop}
          />
        </div>
      </AppShell.Main>
      {grant.descendants && <SubagentAside rootId={grant.sessionId} onOpen={openSession} />}
    </AppShell>
  );
}
