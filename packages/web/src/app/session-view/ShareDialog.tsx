import { useCallback, useEffect, useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  Modal,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import type { ShareGrantView } from '@strand/protocol';
import { describeError, formatTime } from '../shared/format.js';
import { useStrand } from '../shared/hooks.js';
import { copyText } from '../transcript/markdown.js';
import { DEFAULT_SHARE_EXPIRY, SHARE_EXPIRIES, expiresInMs } from './share-expiry.js';

const STATUS_COLOR: Readonly<Record<ShareGrantView['status'], string>> = {
  // The primary colour and gray: their light variants pass 4.5:1 in both schemes (theme.ts).
  active: 'blue',
  expired: 'gray',
  revoked: 'gray',
};

/** A link just made: its URL holds the token, which the host keeps only as a hash. */
interface MadeLink {
  readonly url: string;
  readonly grantId: string;
}

/**
 * "Share" on the session view (the owner's page only): makes a read-only link to this session
 * (`share.create`: expiry, subagents, label), shows it once with Copy — the host cannot show it
 * again — and lists this session's grants (`share.list`) with Revoke (`share.revoke`). A Mantine
 * modal: a dialog role, focus trapped inside, Escape closes it.
 */
export function ShareDialog({ sessionId }: { sessionId: string }): React.JSX.Element {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button size="compact-xs" variant="light" onClick={() => setOpened(true)} data-testid="share-open">
        Share
      </Button>
      <Modal
        opened={opened}
        onClose={() => setOpened(false)}
        title="Share a read-only link"
        size="lg"
        closeButtonProps={{ 'aria-label': 'Close' }}
        data-testid="share-dialog"
      >
        {opened && <ShareDialogBody sessionId={sessionId} />}
      </Modal>
    </>
  );
}

function ShareDialogBody({ sessionId }: { sessionId: string }): React.JSX.Element {
  const { connection } = useStrand();
  const [expiry, setExpiry] = useState<string>(DEFAULT_SHARE_EXPIRY);
  const [descendants, setDescendants] = useState(false);
  const [label, setLabel] = useState('');
  const [making, setMaking] = useState(false);
  const [made, setMade] = useState<MadeLink | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [grants, setGrants] = useState<readonly ShareGrantView[] | null>(null);
  const [listError, setListError] = useState<string | null>(null);

  const reload = useCallback(() => {
    connection.call('share.list', { id: sessionId }).then(
      (result) => {
        setGrants(result.grants);
        setListError(null);
      },
      (failure: unknown) => setListError(describeError(failure)),
    );
  }, [connection, sessionId]);
  useEffect(reload, [reload]);

  const make = (): void => {
    setMaking(true);
    setError(null);
    const trimmed = label.trim();
    connection
      .call('share.create', {
        id: sessionId,
        descendants,
        expiresInMs: expiresInMs(expiry),
        createdBy: 'web',
        ...(trimmed === '' ? {} : { label: trimmed }),
      })
      .then(
        (result) => {
          setMade({ url: result.url, grantId: result.grantId });
          setLabel('');
          reload();
        },
        (failure: unknown) => setError(describeError(failure)),
      )
      .finally(() => setMaking(false));
  };

  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        Whoever opens the link can read this session as it runs{descendants ? ', and its subagents' : ''} —
        nothing else on this host, and they cannot prompt or change it.
      </Text>
      <Group align="flex-end" gap="sm">
        <Select
          label="Expires after"
          size="xs"
          w={130}
          data={SHARE_EXPIRIES.map(({ value, label: text }) => ({ value, label: text }))}
          value={expiry}
          allowDeselect={false}
          onChange={(value) => value !== null && setExpiry(value)}
          data-testid="share-expiry"
        />
        <TextInput
          label="Label (optional)"
          size="xs"
          style={{ flex: 1, minWidth: 160 }}
          placeholder="e.g. for Ana, review"
          maxLength={200}
          value={label}
          onChange={(event) => setLabel(event.currentTarget.value)}
          data-testid="share-label"
        />
      </Group>
      <Checkbox
        label="Include subagents (the session's subagent tree is readable too)"
        size="xs"
        checked={descendants}
        onChange={(event) => setDescendants(event.currentTarget.checked)}
        data-testid="share-descendants"
      />
      <Group justify="flex-end">
        <Button size="xs" onClick={make} loading={making} data-testid="share-create">
          Make link
        </Button>
      </Group>
      {error !== null && (
        <Alert color="red" title="No link made" data-testid="share-error">
          {error}
        </Alert>
      )}
      {made !== null && <MadeLinkView link={made} />}
      <GrantTable grants={grants} error={listError} onRevoked={reload} />
    </Stack>
  );
}

/** The new link, shown once (the host keeps only the token's hash), with Copy. */
function MadeLinkView({ link }: { link: MadeLink }): React.JSX.Element {
  const [copied, setCopied] = useState(false);
  return (
    <Alert variant="light" title="Link made" data-testid="share-made" data-grant-id={link.grantId}>
      <Stack gap="xs">
        <Group gap="xs" wrap="nowrap">
          <TextInput
            aria-label="Share link"
            readOnly
            value={link.url}
            size="xs"
            style={{ flex: 1 }}
            onFocus={(event) => event.currentTarget.select()}
            data-testid="share-url"
          />
          <Button
            size="xs"
            variant={copied ? 'light' : 'filled'}
            onClick={() => void copyText(link.url).then(() => setCopied(true))}
            data-testid="share-copy"
          >
            {copied ? 'Copied' : 'Copy'}
          </Button>
        </Group>
        <Text size="xs">Copy it now: it is shown only once (the host keeps no copy of the link).</Text>
      </Stack>
    </Alert>
  );
}

function GrantTable({
  grants,
  error,
  onRevoked,
}: {
  grants: readonly ShareGrantView[] | null;
  error: string | null;
  onRevoked: () => void;
}): React.JSX.Element {
  return (
    <Stack gap={4}>
      <Title order={5}>Links to this session</Title>
      {error !== null ? (
        <Text size="sm" c="red" data-testid="share-list-error">
          Could not list the links: {error}
        </Text>
      ) : grants === null ? (
        <Text size="sm" c="dimmed">
          Loading…
        </Text>
      ) : grants.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="share-none">
          No links yet.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={480}>
          <Table fz="xs" verticalSpacing={4} data-testid="share-grants">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Label</Table.Th>
                <Table.Th>Created</Table.Th>
                <Table.Th>Expires</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Action</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {grants.map((grant) => (
                <GrantRow key={grant.grantId} grant={grant} onRevoked={onRevoked} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

function GrantRow({ grant, onRevoked }: { grant: ShareGrantView; onRevoked: () => void }): React.JSX.Element {
  const { connection } = useStrand();
  const [revoking, setRevoking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const revoke = (): void => {
    setRevoking(true);
    connection.call('share.revoke', { grant: grant.grantId }).then(
      () => {
        setError(null);
        onRevoked();
      },
      (failure: unknown) => {
        setError(describeError(failure));
        setRevoking(false);
      },
    );
  };
  const name = grant.label ?? '(no label)';
  return (
    <Table.Tr data-testid="share-grant" data-grant-id={grant.grantId} data-status={grant.status}>
      <Table.Td>
        {grant.label ?? (
          <Text span c="dimmed" inherit>
            (no label)
          </Text>
        )}
      </Table.Td>
      <Table.Td>{formatTime(Date.parse(grant.createdAt))}</Table.Td>
      <Table.Td>{grant.expiresAt === null ? 'never' : formatTime(Date.parse(grant.expiresAt))}</Table.Td>
      <Table.Td>
        <Badge size="sm" variant="light" color={STATUS_COLOR[grant.status]}>
          {grant.status}
        </Badge>
      </Table.Td>
      <Table.Td>
        {grant.status === 'active' && (
          <Button
            size="compact-xs"
            color="red"
            variant="subtle"
            loading={revoking}
            onClick={revoke}
            aria-label={`Revoke ${name}`}
            data-testid="share-revoke"
          >
            Revoke
          </Button>
        )}
        {error !== null && (
          <Text size="xs" c="red" role="alert">
            {error}
          </Text>
        )}
      </Table.Td>
    </Table.Tr>
  );
}
