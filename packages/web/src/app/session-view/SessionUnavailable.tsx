import { Alert, Anchor, Text } from '@mantine/core';
import { StrandRpcError } from '@strand/protocol';
import { describeError } from '../shared/format.js';
import { followLink } from '../shared/routing/navigation.js';

/** The host's code for an id no session has (`session.follow`'s `READ_ONE` errors). */
const NOT_FOUND = 'SESSION_QUERY_NOT_FOUND';

/** True when `error` says the host has no session with the id asked for. */
export function isUnknownSession(error: unknown): boolean {
  return error instanceof StrandRpcError && error.code === NOT_FOUND;
}

/**
 * A session that could not be opened and has nothing to show: one state, in place of the header,
 * the transcript and the composer — never a spinner beside an error, nor a prompt box for a
 * session that is not there.
 */
export function SessionUnavailable({
  sessionId,
  error,
}: {
  sessionId: string;
  error: unknown;
}): React.JSX.Element {
  const unknown = isUnknownSession(error);
  return (
    <Alert
      color={unknown ? 'gray' : 'red'}
      title={unknown ? `No session with id ${sessionId}` : `Could not open ${sessionId}`}
      data-testid={unknown ? 'session-unknown' : 'follow-error'}
    >
      <Text size="sm">
        {unknown
          ? 'It may have been deleted, or the link has a typo. '
          : `${describeError(error)}. It is tried again when the connection returns. `}
        <Anchor href="/" onClick={(event) => followLink(event, { kind: 'home' })}>
          Go to the start page
        </Anchor>
        .
      </Text>
    </Alert>
  );
}
