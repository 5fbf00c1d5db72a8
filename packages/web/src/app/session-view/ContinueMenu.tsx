import { useRef, useState } from 'react';
import { Alert, Button, Code, Group, List, Loader, Menu, Modal, Stack, Text } from '@mantine/core';
import { EXPORT_HARNESSES, type ExportHarnessName, type ResultOf } from '@strand/protocol';
import { describeError } from '../shared/format.js';
import { harnessLabel } from '../shared/harness-labels.js';
import { useStrand } from '../shared/hooks.js';
import { copyText } from '../transcript/markdown.js';

type Written = ResultOf<'session.exportTo'>;

/** A long path or command wraps inside its box instead of scrolling it (nothing to reach by keyboard). */
const WRAPPED = { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' } as const;

/** Where the dialog is: writing, written (what the host answered) or refused (its message). */
type Outcome =
  | { readonly kind: 'writing' }
  | { readonly kind: 'written'; readonly written: Written }
  | { readonly kind: 'failed'; readonly message: string };

/**
 * "Continue in…" on the session view (the owner's page only, beside Export): one entry per
 * harness. Choosing one asks the host to write the session as that harness's own transcript into
 * the host's folder for it (`session.exportTo`) and shows, in a dialog, the command that resumes
 * it there with Copy, the file written, and what the transcript could not hold; a refusal is the
 * host's message in the same dialog. Runs on the host's machine: the command is for that machine.
 */
export function ContinueMenu({ sessionId }: { sessionId: string }): React.JSX.Element {
  const { connection } = useStrand();
  const [harness, setHarness] = useState<ExportHarnessName | null>(null);
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'writing' });
  // Only the latest choice's answer is shown (an earlier one may arrive after it).
  const latest = useRef(0);

  const choose = (chosen: ExportHarnessName): void => {
    const request = ++latest.current;
    setHarness(chosen);
    setOutcome({ kind: 'writing' });
    const settle = (next: Outcome): void => {
      if (request === latest.current) setOutcome(next);
    };
    connection.call('session.exportTo', { id: sessionId, harness: chosen }).then(
      (written) => settle({ kind: 'written', written }),
      (failure: unknown) => settle({ kind: 'failed', message: describeError(failure) }),
    );
  };

  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button size="compact-xs" variant="light" data-testid="continue-menu">
            Continue in…
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {EXPORT_HARNESSES.map((name) => (
            <Menu.Item key={name} onClick={() => choose(name)} data-testid={`continue-${name}`}>
              {harnessLabel(name)}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
      <Modal
        opened={harness !== null}
        onClose={() => setHarness(null)}
        title={harness === null ? 'Continue in…' : `Continue in ${harnessLabel(harness)}`}
        size="lg"
        closeButtonProps={{ 'aria-label': 'Close' }}
        data-testid="continue-dialog"
      >
        {harness !== null && <ContinueBody harness={harness} outcome={outcome} />}
      </Modal>
    </>
  );
}

function ContinueBody({
  harness,
  outcome,
}: {
  harness: ExportHarnessName;
  outcome: Outcome;
}): React.JSX.Element {
  const label = harnessLabel(harness);
  if (outcome.kind === 'writing')
    return (
      <Group gap="xs" role="status">
        <Loader size="xs" />
        <Text size="sm">Writing the {label} transcript on the host…</Text>
      </Group>
    );
  if (outcome.kind === 'failed')
    return (
      <Alert color="red" title="Nothing written" data-testid="continue-error">
        {outcome.message}
      </Alert>
    );
  const { written } = outcome;
  return (
    <Stack gap="md" data-testid="continue-written">
      <Text size="sm" c="dimmed">
        The session is written where {label} looks for it on the host&apos;s machine. Run this there to
        continue it:
      </Text>
      <Stack gap={2}>
        <Text size="xs" fw={600}>
          Command
        </Text>
        <CommandBox command={written.command} />
      </Stack>
      <Stack gap={2}>
        <Text size="xs" fw={600}>
          File
        </Text>
        <Code block style={WRAPPED} data-testid="continue-path">
          {written.path}
        </Code>
      </Stack>
      {written.running && (
        <Text size="xs" c="dimmed" data-testid="continue-running">
          A turn is still running: the transcript holds events 0–{written.lastSeq}, what was saved.
        </Text>
      )}
      <Stack gap={2}>
        <Text size="xs" fw={600}>
          Left out
        </Text>
        {written.leftOut.length === 0 ? (
          <Text size="xs" data-testid="continue-left-out">
            Nothing: {label} holds all of it.
          </Text>
        ) : (
          <List size="xs" data-testid="continue-left-out">
            {written.leftOut.map((line) => (
              <List.Item key={line}>{line}</List.Item>
            ))}
          </List>
        )}
      </Stack>
    </Stack>
  );
}

/** The resume command in a code box, with Copy. */
function CommandBox({ command }: { command: string }): React.JSX.Element {
  const [copied, setCopied] = useState(false);
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <Code block style={{ ...WRAPPED, flex: 1 }} data-testid="continue-command">
        {command}
      </Code>
      <Button
        size="xs"
        variant={copied ? 'light' : 'filled'}
        onClick={() => void copyText(command).then(() => setCopied(true))}
        data-testid="continue-copy"
      >
        {copied ? 'Copied' : 'Copy'}
      </Button>
    </Group>
  );
}
