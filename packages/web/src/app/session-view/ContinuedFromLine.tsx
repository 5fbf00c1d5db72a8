import { Text } from '@mantine/core';
import { readContinuedFrom } from './continued-from.js';
import { harnessLabel } from '../shared/harness-labels.js';
import { followLink } from '../shared/routing/navigation.js';
import { sessionHref } from '../shared/routing/routes.js';
import { parentName } from '../transcript/descriptor-line.js';
import { useProjection } from '../shared/use-projection.js';

/**
 * "Continued in Claude Code from <origin>": a session that continues a Strand export (the
 * `continuedFrom` unit), with a link to the origin, named by its title when the store has one.
 * Nothing for any other session.
 */
export function ContinuedFromLine({ sessionId }: { sessionId: string }): React.JSX.Element | null {
  const continued = readContinuedFrom(useProjection(sessionId, 'continuedFrom'));
  if (continued === undefined) return null;
  return (
    <Text size="xs" c="dimmed" data-testid="continued-from">
      Continued in {harnessLabel(continued.harness)} from <OriginLink id={continued.session} />
    </Text>
  );
}

function OriginLink({ id }: { id: string }): React.JSX.Element {
  const name = parentName(id, useProjection(id, 'title'));
  return (
    <a
      href={sessionHref(id)}
      title={`Open the origin session ${id}`}
      onClick={(click) => followLink(click, { kind: 'session', id })}
      data-testid="continued-from-origin"
    >
      {name}
    </a>
  );
}
