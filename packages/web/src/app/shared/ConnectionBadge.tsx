import { Badge } from '@mantine/core';
import type { ConnectionState } from '@strand/client';
import { useConnectionState } from './hooks.js';

const STATE_COLOR: Record<ConnectionState, string> = {
  connecting: 'yellow',
  open: 'green',
  reconnecting: 'orange',
  closed: 'red',
};

/** The header's connection badge (`data-state` is what the browser tests wait on). */
export function ConnectionBadge(): React.JSX.Element {
  const state = useConnectionState();
  return (
    <Badge color={STATE_COLOR[state]} data-testid="connection-state" data-state={state}>
      {state}
    </Badge>
  );
}
