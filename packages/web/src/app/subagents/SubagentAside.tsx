import { AppShell, Button, Text, type MantineBreakpoint } from '@mantine/core';
import type { OpenRequest } from '../shared/open-request.js';
import { REGION } from '../shared/SkipLinks.js';
import { SubagentTree } from './SubagentTree.js';

/** The shell's subagent panel (landmark "Subagents"): the open session's tree, or a word when none is. */
export function SubagentAside({
  rootId,
  onOpen,
}: {
  rootId: string | null;
  onOpen: (request: OpenRequest) => void;
}): React.JSX.Element {
  return (
    <AppShell.Aside
      p="sm"
      className="strand-aside"
      id={REGION.subagents}
      tabIndex={-1}
      aria-label="Subagents"
      data-testid="aside"
    >
      {rootId === null ? (
        <Text size="sm" c="dimmed">
          No session open.
        </Text>
      ) : (
        <SubagentTree key={rootId} rootId={rootId} onOpen={onOpen} />
      )}
    </AppShell.Aside>
  );
}

/** The header's "Subagents" button, which shows the panel as a drawer below `hiddenFrom`. */
export function SubagentsToggle({
  opened,
  onToggle,
  hiddenFrom,
  hidden = false,
}: {
  opened: boolean;
  onToggle: () => void;
  hiddenFrom: MantineBreakpoint;
  /** Hidden at every width (a page without the panel). */
  hidden?: boolean;
}): React.JSX.Element {
  return (
    <Button
      size="compact-sm"
      variant={opened ? 'filled' : 'light'}
      hiddenFrom={hiddenFrom}
      display={hidden ? 'none' : undefined}
      onClick={onToggle}
      aria-expanded={opened}
      aria-controls={REGION.subagents}
      data-testid="aside-toggle"
    >
      Subagents
    </Button>
  );
}
