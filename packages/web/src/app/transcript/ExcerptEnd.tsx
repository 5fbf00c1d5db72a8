import { Anchor, Text } from '@mantine/core';
import { followLink } from '../shared/routing/navigation.js';
import { sessionHref } from '../shared/routing/routes.js';

/**
 * The end of an excerpt read around a `?seq=` target, when events lie between it and the
 * follower's window: says so, and links to the session's latest events (the address without
 * `?seq=`, so Back returns to the target).
 */
export function ExcerptEnd({
  sessionId,
  from,
  to,
}: {
  sessionId: string;
  /** The first event not loaded after the excerpt. */
  from: number;
  /** The follower's first event. */
  to: number;
}): React.JSX.Element {
  return (
    <Text size="sm" c="dimmed" ta="center" mt="xs" data-testid="excerpt-end">
      Events #{from}–#{to - 1} are not loaded.{' '}
      <Anchor
        href={sessionHref(sessionId)}
        onClick={(event) => followLink(event, { kind: 'session', id: sessionId })}
        data-testid="to-latest"
      >
        Go to the latest events
      </Anchor>
    </Text>
  );
}
