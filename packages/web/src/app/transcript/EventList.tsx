import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Box, Button, Group, Loader, Text } from '@mantine/core';
import type { FollowDraft, SessionFollower } from '@strand/client';
import type { WireEvent } from '@strand/protocol';
import { describeError } from '../shared/format.js';
import { nextRow, transcriptKey } from './keyboard.js';
import { ExcerptEnd } from './ExcerptEnd.js';
import { joinExcerpt } from './target-excerpt.js';
import { Transcript } from './Transcript.js';
import { targetRowSeq } from '@strand/transcript';
import { useTargetExcerpt } from './use-target-excerpt.js';

/** Events one "load older" asks for: a bigger step than the opening window, a few screens back. */
const OLDER_PAGE = 250;
/** Frames the target is re-centred on after the jump (see the effect below). */
const SETTLE_FRAMES = 3;

const ROW = '.strand-transcript > [data-testid="event"]';

function isField(element: EventTarget): boolean {
  return (
    element instanceof HTMLElement &&
    (element.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(element.tagName))
  );
}

/**
 * The scrolling transcript of one followed window: sticks to the bottom while the reader is
 * there, pages back on scroll-to-top, and — given `targetSeq` (a `?seq=` link) before the window
 * — reads the events around it directly (`use-target-excerpt.ts`, progress shown meanwhile),
 * scrolls it to the middle and marks it. One Tab stop: the keys of
 * `keyboard.ts` move the focus between rows.
 */
export function EventList({
  follower,
  sessionId,
  events: followEvents,
  firstSeq: followFirstSeq,
  draft,
  targetSeq,
  parentSession,
}: {
  follower: SessionFollower | null;
  sessionId: string;
  /** The follower's window. */
  events: readonly WireEvent[];
  firstSeq: number;
  draft: FollowDraft | null;
  targetSeq: number | undefined;
  /** A subagent child's parent, for its identity line (`Transcript`). */
  parentSession?: string | undefined;
}): React.JSX.Element {
  const followWindow = { firstSeq: followFirstSeq, events: followEvents };
  const { excerpt, loadOlder: loadOlderExcerpt } = useTargetExcerpt(
    sessionId,
    targetSeq,
    follower === null ? undefined : followFirstSeq,
  );
  const shown =
    excerpt.kind === 'loaded' ? joinExcerpt(excerpt.run, followWindow) : { ...followWindow, detached: false };
  const { firstSeq, events } = shown;
  const scroller = useRef<HTMLDivElement>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [olderError, setOlderError] = useState<string | null>(null);
  const anchor = useRef<{ firstSeq: number; height: number; top: number } | null>(null);
  const stickToBottom = useRef(targetSeq === undefined);
  /** The target last scrolled to: a later render (a live append) must not yank the reader back. */
  const scrolledTo = useRef<number | undefined>(undefined);
  // Where the session ends as far as the follower knows (an excerpt may end well before it).
  const lastSeq = followEvents.at(-1)?.seq ?? followFirstSeq - 1;
  const loaded = targetSeq !== undefined && targetSeq >= firstSeq && targetSeq < firstSeq + events.length;
  const highlightSeq = useMemo(
    () => (loaded ? targetRowSeq(events, targetSeq) : undefined),
    [loaded, events, targetSeq],
  );

  const loadOlder = (limit: number = OLDER_PAGE): void => {
    const element = scroller.current;
    if (follower === null || element === null || loadingOlder || firstSeq === 0) return;
    anchor.current = { firstSeq, height: element.scrollHeight, top: element.scrollTop };
    setLoadingOlder(true);
    // Older than an excerpt in front of the window: page the excerpt, not the window.
    const older = firstSeq < followFirstSeq ? loadOlderExcerpt(limit) : follower.loadOlder(limit);
    older.then(
      () => {
        setLoadingOlder(false);
        setOlderError(null);
      },
      (failure: unknown) => {
        setLoadingOlder(false);
        setOlderError(describeError(failure));
      },
    );
  };

  // Another target (or none: back to the end, following live appends).
  useLayoutEffect(() => {
    scrolledTo.current = undefined;
    stickToBottom.current = targetSeq === undefined;
    const element = scroller.current;
    if (targetSeq === undefined && element !== null) element.scrollTop = element.scrollHeight;
  }, [targetSeq]);

  useLayoutEffect(() => {
    const element = scroller.current;
    if (element === null) return;
    const saved = anchor.current;
    if (saved !== null && saved.firstSeq !== firstSeq) {
      // Older events were prepended: keep the same content under the viewport.
      element.scrollTop = saved.top + (element.scrollHeight - saved.height);
      anchor.current = null;
    } else if (stickToBottom.current) {
      element.scrollTop = element.scrollHeight;
    }
  }, [events, firstSeq, draft]);

  useLayoutEffect(() => {
    if (highlightSeq === undefined || scrolledTo.current === targetSeq) return;
    const row = scroller.current?.querySelector<HTMLElement>(`${ROW}[data-seq="${highlightSeq}"]`);
    if (row === null || row === undefined) return;
    scrolledTo.current = targetSeq;
    stickToBottom.current = false;
    row.scrollIntoView({ block: 'center' });
    row.focus({ preventScroll: true });
    // Rows above were sized by estimate (content-visibility: auto); once the rows near the target
    // are laid out for real it may have moved, so it is centred again for a few frames.
    let frames = 0;
    let frame = 0;
    const settle = (): void => {
      row.scrollIntoView({ block: 'center' });
      if (++frames < SETTLE_FRAMES) frame = requestAnimationFrame(settle);
    };
    frame = requestAnimationFrame(settle);
    return () => cancelAnimationFrame(frame);
  }, [highlightSeq, targetSeq]);

  const onKeyDown = (event: React.KeyboardEvent<HTMLDivElement>): void => {
    const element = scroller.current;
    if (element === null) return;
    const rows = Array.from(element.querySelectorAll<HTMLElement>(ROW));
    const focused = event.target instanceof HTMLElement ? event.target.closest<HTMLElement>(ROW) : null;
    const action = transcriptKey({
      key: event.key,
      ctrlKey: event.ctrlKey,
      altKey: event.altKey,
      metaKey: event.metaKey,
      inField: isField(event.target),
      onRow: focused !== null && focused === event.target,
    });
    if (action === undefined) return;
    event.preventDefault();
    if (action === 'activate') {
      focused?.querySelector<HTMLElement>('summary, button, a[href]:not([data-testid="seq-link"])')?.click();
      return;
    }
    if (action === 'to-row') {
      focused?.focus();
      return;
    }
    const current = focused === null ? undefined : rows.indexOf(focused);
    const view = element.getBoundingClientRect();
    const first = rows.findIndex((row) => row.getBoundingClientRect().bottom > view.top);
    const last = rows.findLastIndex((row) => row.getBoundingClientRect().top < view.bottom);
    const to = nextRow(action, rows.length, current === -1 ? undefined : current, { first, last });
    if (to === undefined) {
      // Above the first loaded event: the next page, as scrolling to the top would.
      if (action === 'previous') loadOlder();
      return;
    }
    stickToBottom.current = to === rows.length - 1;
    rows[to]?.focus();
  };

  return (
    <Box
      ref={scroller}
      data-testid="event-list"
      role="region"
      aria-label="Transcript (j/k or arrow keys move between events)"
      tabIndex={0}
      className="strand-event-list"
      onKeyDown={onKeyDown}
      onScroll={(event) => {
        const element = event.currentTarget;
        stickToBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < 40;
        if (element.scrollTop < 40) loadOlder();
      }}
    >
      <Group justify="center" mb="xs">
        {firstSeq === 0 ? (
          <Text size="xs" c="dimmed" data-testid="history-start">
            Start of the session
          </Text>
        ) : (
          <Button
            size="compact-xs"
            variant="subtle"
            onClick={() => loadOlder()}
            loading={loadingOlder}
            data-testid="load-older"
          >
            Load older events (before #{firstSeq})
          </Button>
        )}
        {olderError !== null && (
          <Text size="xs" c="red" data-testid="older-error">
            {olderError}
          </Text>
        )}
      </Group>
      {excerpt.kind === 'loading' ? (
        <Group gap="xs" data-testid="target-loading" role="status">
          <Loader size="xs" />
          <Text size="sm">Reading the events around #{excerpt.targetSeq}…</Text>
        </Group>
      ) : (
        <Transcript
          sessionId={sessionId}
          events={events}
          draft={shown.detached ? null : draft}
          highlightSeq={highlightSeq}
          parentSession={parentSession}
        />
      )}
      {excerpt.kind === 'failed' && (
        <Text size="xs" c="red" data-testid="target-error">
          Could not read the events around #{targetSeq}: {excerpt.message}
        </Text>
      )}
      {shown.detached && (
        <ExcerptEnd sessionId={sessionId} from={firstSeq + events.length} to={followFirstSeq} />
      )}
      {targetSeq !== undefined && targetSeq > lastSeq && (
        <Text size="sm" c="dimmed" mt="xs" data-testid="target-missing">
          Event #{targetSeq} is not in this session{lastSeq < 0 ? '' : ` (it ends at #${lastSeq})`}.
        </Text>
      )}
    </Box>
  );
}
