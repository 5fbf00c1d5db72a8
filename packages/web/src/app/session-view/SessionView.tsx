import { createContext, useCallback, useContext, useEffect, useId, useState } from 'react';
import {
  Alert,
  Badge,
  Box,
  Button,
  Group,
  Loader,
  Paper,
  Select,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { readUsageValue, selectModel, selectPreset, usageLine } from '@strand/client';
import { sessionHarness } from '@strand/session';
import { describeError } from '../shared/format.js';
import { harnessLabel } from '../shared/harness-labels.js';
import { EventList } from '../transcript/EventList.js';
import { subagentParent } from '../shared/subagent-parent.js';
import { ForkBadge } from '../shared/ForkBadge.js';
import { ContinueMenu } from './ContinueMenu.js';
import { ExportMenu } from './ExportMenu.js';
import { ContinuedFromLine } from './ContinuedFromLine.js';
import { ShareDialog } from './ShareDialog.js';
import { useSharedGrant } from '../shared/share-context.js';
import { SharedBadge } from '../shared/SharedBadge.js';
import type { SharedGrant } from '../shared/access.js';
import { SessionUnavailable } from './SessionUnavailable.js';
import { SessionCost } from '../usage/SessionCost.js';

/** The session's own tokens, and what a fork inherited; "none yet" before the first response. */
function usageText(value: unknown): string {
  const usage = readUsageValue(value);
  if (usage === undefined) return value === null ? 'unreadable' : 'none yet';
  const inherited = usage.inherited.input + usage.inherited.output > 0;
  const own = usageLine(usage.own);
  return inherited ? `${own} (+ ${usageLine(usage.inherited)} before the fork)` : own;
}
import { useCatalog, useDraft, useStrand } from '../shared/hooks.js';
import { useProjection, useProjectionRows } from '../shared/use-projection.js';
import { useSessionFollow } from './use-session-follow.js';

interface Props {
  readonly sessionId: string;
  /** Known to be a subagent child before the follow: follow non-interactively. */
  readonly child: boolean;
  readonly onChildDetected: (id: string) => void;
  /** A `?seq=` link: scroll to this event (paging back to it) and mark it. */
  readonly targetSeq?: number | undefined;
}

/**
 * Calls the view makes before it sends a command: the first one turns the read-only follow into an
 * interactive one (which may promote the session).
 */
const InteractContext = createContext<() => void>(() => undefined);

/**
 * One opened session. Opening it to read uses a non-interactive follow, so reading never
 * promotes it; the first use of the composer or a command re-follows interactively (a child
 * stays read-only). The read-only view stays on screen until the interactive one has its snapshot.
 */
export function SessionView({ sessionId, child, onChildDetected, targetSeq }: Props): React.JSX.Element {
  const [interactiveFor, setInteractiveFor] = useState<string | null>(null);
  // A share link's page only reads: the host refuses an interactive follow on it.
  const shared = useSharedGrant();
  const interactive = interactiveFor === sessionId && !child && shared === null;
  const { follower, view } = useSessionFollow(sessionId, { interactive });
  const interact = useCallback(() => {
    if (!child && shared === null) setInteractiveFor(sessionId);
  }, [child, shared, sessionId]);
  const draft = useDraft(follower);
  const shown = view?.shown ?? null;
  const isChild = child || shown?.header.origin === 'subagent';
  // Another harness owns an imported session: Strand reads, follows and forks it, never appends.
  const source = shown?.header.source;
  const readOnly = isChild || source !== undefined || shared !== null;
  useEffect(() => {
    if (shown?.header.origin === 'subagent' && !child) onChildDetected(sessionId);
  }, [shown?.header.origin, child, sessionId, onChildDetected]);

  if (shown === null && view !== null && view.error !== null && view.error !== undefined)
    return (
      <Stack gap="sm" h="100%" data-testid="session-view" data-session-id={sessionId}>
        <SessionUnavailable sessionId={sessionId} error={view.error} />
      </Stack>
    );

  return (
    <InteractContext.Provider value={interact}>
      <Stack
        gap="sm"
        h="100%"
        data-testid="session-view"
        data-session-id={sessionId}
        data-interactive={interactive}
      >
        <SessionHeader
          sessionId={sessionId}
          shared={shared}
          readOnly={readOnly}
          readOnlyLabel={
            source !== undefined ? `from ${harnessLabel(source.harness)} · read-only` : 'read-only child'
          }
          busy={shown?.busy ?? false}
          phase={view?.phase ?? 'opening'}
          place={shown === null ? null : { cwd: shown.header.cwd, harness: sessionHarness(shown.header) }}
          forkedFrom={shown?.header.forkedFrom}
        />
        {view?.error !== null && view?.error !== undefined && (
          <Alert color="red" title="Follow failed" data-testid="follow-error">
            {describeError(view.error)}
          </Alert>
        )}
        {shown?.stopped !== undefined && (
          <Alert
            color="red"
            title="Session stopped: its log could not be written"
            data-testid="session-stopped"
          >
            {shown.stopped.message}. Nothing after the last saved event was shown. Fix the cause (disk space,
            permissions); the next prompt reopens the session from disk.
          </Alert>
        )}
        {shown === null ? (
          <Group gap="xs">
            <Loader size="sm" /> <Text size="sm">Opening {sessionId}…</Text>
          </Group>
        ) : (
          <EventList
            sessionId={sessionId}
            follower={follower}
            events={shown.events}
            firstSeq={shown.firstSeq}
            draft={draft}
            targetSeq={targetSeq}
            parentSession={subagentParent(shown.header) ?? undefined}
          />
        )}
        {shared !== null ? (
          <Text size="sm" c="dimmed" data-testid="read-only-note">
            Shared with you read-only: it updates as the session runs.
          </Text>
        ) : source !== undefined ? (
          <Text size="sm" c="dimmed" data-testid="read-only-note">
            Imported from {harnessLabel(source.harness)}, which owns it: read-only here. Fork it to continue
            in Strand.
          </Text>
        ) : isChild ? (
          <Text size="sm" c="dimmed" data-testid="read-only-note">
            Subagent child: read-only (its parent drives it).
          </Text>
        ) : (
          <Composer sessionId={sessionId} busy={shown?.busy ?? false} />
        )}
      </Stack>
    </InteractContext.Provider>
  );
}

function SessionHeader({
  sessionId,
  shared,
  readOnly,
  readOnlyLabel,
  busy,
  phase,
  place,
  forkedFrom,
}: {
  sessionId: string;
  /** The grant of a share link's page: no selectors, cost or Share, and a badge saying so. */
  shared: SharedGrant | null;
  /** The session a fork was cut from: its title is inherited, so the header says it is a fork. */
  forkedFrom: string | undefined;
  /** The header's project and harness, once the follow has it: what the cost call narrows by. */
  place: { readonly cwd: string | undefined; readonly harness: string } | null;
  readOnly: boolean;
  /** Why it is read-only, in words: a subagent child, or a session another harness owns. */
  readOnlyLabel: string;
  busy: boolean;
  phase: string;
}): React.JSX.Element {
  const title = useProjection(sessionId, 'title');
  const usage = useProjection(sessionId, 'usage');
  const [details, setDetails] = useState(false);
  const detailsId = useId();
  return (
    <Paper withBorder p="sm" className="strand-session-header" data-testid="session-header">
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <Box style={{ minWidth: 0 }}>
          <Title order={4} data-testid="view-title" className="strand-session-title">
            {!title.known ? (
              <Text span c="dimmed" fs="italic" inherit>
                (title unknown)
              </Text>
            ) : typeof title.value === 'string' ? (
              title.value
            ) : (
              <Text span c="dimmed" inherit>
                (untitled)
              </Text>
            )}
          </Title>
          <Text size="xs" c="dimmed" truncate>
            {sessionId}
          </Text>
          <ContinuedFromLine sessionId={sessionId} />
        </Box>
        <Group gap={4} justify="flex-end">
          <Button
            hiddenFrom="sm"
            size="compact-xs"
            variant="subtle"
            onClick={() => setDetails((open) => !open)}
            aria-expanded={details}
            aria-controls={detailsId}
            data-testid="header-details-toggle"
          >
            {details ? 'Less' : 'Details'}
          </Button>
          {shared === null && <ShareDialog sessionId={sessionId} />}
          <ExportMenu sessionId={sessionId} />
          {/* It writes files on the host: a share link's page only reads. */}
          {shared === null && <ContinueMenu sessionId={sessionId} />}
          <Badge variant="light" data-testid="follow-phase">
            {phase}
          </Badge>
          {forkedFrom !== undefined && <ForkBadge parent={forkedFrom} />}
          {shared !== null ? (
            <SharedBadge grant={shared} />
          ) : (
            readOnly && (
              <Badge variant="outline" data-testid="read-only-badge">
                {readOnlyLabel}
              </Badge>
            )
          )}
          {busy ? (
            <Badge color="orange" data-testid="view-running">
              running
            </Badge>
          ) : (
            <Badge color="gray" variant="light" data-testid="view-idle">
              idle
            </Badge>
          )}
        </Group>
      </Group>
      {/* On a phone the selectors, usage and cost wait behind "Details", so the transcript keeps
          the screen (layout.css). */}
      <Group
        gap="md"
        mt="xs"
        align="flex-end"
        id={detailsId}
        className="strand-session-details"
        data-open={details}
      >
        {shared === null && (
          <>
            <ModelSelector sessionId={sessionId} readOnly={readOnly} />
            <PresetSelector sessionId={sessionId} readOnly={readOnly} />
          </>
        )}
        <Box data-testid="view-usage">
          <Text size="xs" c="dimmed">
            Usage
          </Text>
          <Text size="sm">{!usage.known ? 'unknown' : usageText(usage.value)}</Text>
        </Box>
        {place !== null && shared === null && (
          <SessionCost
            sessionId={sessionId}
            cwd={place.cwd}
            harness={place.harness}
            usage={usage.known ? usage.value : undefined}
          />
        )}
      </Group>
    </Paper>
  );
}

/**
 * What a catalog-backed selector shows until both its catalog and the session's projection are
 * ready, or when the catalog failed: never a guessed default (packages/client/README.md).
 */
function SelectorStatus({
  testId,
  label,
  failure,
}: {
  testId: string;
  label: string;
  failure?: unknown;
}): React.JSX.Element {
  return (
    <Box data-testid={testId}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      {failure === undefined ? (
        <Text size="sm">loading…</Text>
      ) : (
        <Text size="sm" c="red">
          {describeError(failure)}
        </Text>
      )}
    </Box>
  );
}

/**
 * The select every catalog-backed selector shows once catalog and projection are ready: choosing
 * sends the command; the value shown stays the projection's (it changes when the frame arrives).
 */
function CatalogSelect({
  testId,
  label,
  placeholder,
  data,
  value,
  readOnly,
  choose,
}: {
  testId: string;
  label: string;
  placeholder: string;
  data: { value: string; label: string }[];
  value: string | null;
  readOnly: boolean;
  /** Sends the command for `value`; undefined when `value` names nothing selectable. */
  choose: (value: string) => Promise<unknown> | undefined;
}): React.JSX.Element {
  const [error, setError] = useState<string | null>(null);
  const interact = useContext(InteractContext);
  return (
    <Box data-testid={testId}>
      <Select
        label={label}
        size="xs"
        placeholder={placeholder}
        data={data}
        value={value}
        disabled={readOnly}
        allowDeselect={false}
        onChange={(chosen) => {
          if (chosen === null) return;
          interact();
          choose(chosen)?.then(
            () => setError(null),
            (failure: unknown) => setError(describeError(failure)),
          );
        }}
        error={error}
      />
    </Box>
  );
}

function ModelSelector({ sessionId, readOnly }: { sessionId: string; readOnly: boolean }): React.JSX.Element {
  const strand = useStrand();
  const catalog = useCatalog(strand.models);
  useProjectionRows([sessionId]);
  const display = selectModel(strand.store, catalog, sessionId);
  if (display.status === 'loading') return <SelectorStatus testId="model-select" label="Model" />;
  if (display.status === 'error')
    return <SelectorStatus testId="model-select" label="Model" failure={display.error} />;
  const entries = catalog.last?.value ?? [];
  const current = display.current;
  const key = (provider: string, model: string): string => `${provider}/${model}`;
  const data = entries.map((entry) => ({ value: key(entry.provider, entry.model), label: entry.label }));
  if (current?.kind === 'unknown')
    data.push({
      value: key(current.route.provider, current.route.model),
      label: `${current.route.provider}/${current.route.model} (unknown)`,
    });
  return (
    <CatalogSelect
      testId="model-select"
      label={display.isPending ? 'Model (pending)' : 'Model'}
      placeholder="none selected"
      data={data}
      value={current === null ? null : key(current.route.provider, current.route.model)}
      readOnly={readOnly}
      choose={(value) => {
        const entry = entries.find((candidate) => key(candidate.provider, candidate.model) === value);
        if (entry === undefined) return undefined;
        return strand.connection.call('session.selectModel', {
          id: sessionId,
          provider: entry.provider,
          model: entry.model,
        });
      }}
    />
  );
}

function PresetSelector({
  sessionId,
  readOnly,
}: {
  sessionId: string;
  readOnly: boolean;
}): React.JSX.Element {
  const strand = useStrand();
  const catalog = useCatalog(strand.presets);
  useProjectionRows([sessionId]);
  const display = selectPreset(strand.store, catalog, sessionId);
  if (display.status === 'loading') return <SelectorStatus testId="preset-select" label="Agent preset" />;
  if (display.status === 'error')
    return <SelectorStatus testId="preset-select" label="Agent preset" failure={display.error} />;
  const entries = catalog.last?.value ?? [];
  const data = entries.map((entry) => ({ value: entry.name, label: entry.name }));
  const preset = display.preset;
  if (preset?.kind === 'unknown') data.push({ value: preset.name, label: `${preset.name} (unknown)` });
  return (
    <CatalogSelect
      testId="preset-select"
      label="Agent preset"
      placeholder="none recorded"
      data={data}
      value={preset === null ? null : preset.kind === 'known' ? preset.entry.name : preset.name}
      readOnly={readOnly}
      choose={(value) => strand.connection.call('session.selectPreset', { id: sessionId, preset: value })}
    />
  );
}

function Composer({ sessionId, busy }: { sessionId: string; busy: boolean }): React.JSX.Element {
  const { connection } = useStrand();
  const interact = useContext(InteractContext);
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const send = (): void => {
    const value = draft.trim();
    if (value === '') return;
    interact();
    setSending(true);
    connection.call('session.prompt', { id: sessionId, text: value }).then(
      () => {
        setDraft('');
        setError(null);
        setSending(false);
      },
      (failure: unknown) => {
        setError(describeError(failure));
        setSending(false);
      },
    );
  };
  const stop = (): void => {
    interact();
    connection.call('session.cancel', { id: sessionId }).then(
      () => setError(null),
      (failure: unknown) => setError(describeError(failure)),
    );
  };
  return (
    <Stack gap={4} data-testid="composer">
      <Group align="flex-end" wrap="nowrap">
        <Textarea
          style={{ flex: 1 }}
          placeholder="Prompt the agent… (Ctrl+Enter to send)"
          aria-label="Prompt"
          autosize
          minRows={1}
          maxRows={6}
          value={draft}
          onChange={(event) => setDraft(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) send();
          }}
          data-testid="composer-input"
        />
        <Button onClick={send} loading={sending} disabled={draft.trim() === ''} data-testid="composer-send">
          Send
        </Button>
        <Button color="red" variant="light" onClick={stop} disabled={!busy} data-testid="composer-stop">
          Stop
        </Button>
      </Group>
      {error !== null && (
        <Text size="xs" c="red" data-testid="composer-error">
          {error}
        </Text>
      )}
    </Stack>
  );
}
