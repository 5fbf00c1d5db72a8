import { useMemo } from 'react';
import type { FollowDraft } from '@strand/client';
import type { WireEvent } from '@strand/protocol';
import { EventRow } from './EventRow.js';
import { Markdown } from './Markdown.js';
import { transcriptRows } from '@strand/transcript';
import 'highlight.js/styles/github.css';
import './transcript.css';

/** The rendered conversation: messages as markdown, tool calls as cards with their results, quiet markers. */
export function Transcript({
  sessionId,
  events,
  draft = null,
  highlightSeq,
  parentSession,
}: {
  sessionId: string;
  events: readonly WireEvent[];
  /** A subagent child's parent (header `parentSession`): named by the descriptor's identity line. */
  parentSession?: string | undefined;
  /** The running step's text so far: shown where its message will be, until the message replaces it. */
  draft?: FollowDraft | null;
  /** The row a `?seq=` link points at (`targetRowSeq`): marked `data-target` and `aria-current`. */
  highlightSeq?: number | undefined;
}): React.JSX.Element {
  const rows = useMemo(() => transcriptRows(events), [events]);
  return (
    <div className="strand-transcript" role="feed" aria-label="Events">
      {rows.map((row) => (
        <EventRow
          key={row.seq}
          sessionId={sessionId}
          row={row}
          highlighted={row.seq === highlightSeq}
          parentSession={parentSession}
        />
      ))}
      {draft !== null && <DraftRow draft={draft} />}
    </div>
  );
}

/** A reply being written: not an event (no seq of its own), so tests and readers can tell it apart. */
function DraftRow({ draft }: { draft: FollowDraft }): React.JSX.Element {
  return (
    <div
      className="strand-message strand-assistant strand-draft"
      data-testid="draft"
      data-step={draft.step}
      aria-live="polite"
    >
      <div className="strand-message-head">
        Assistant <span className="strand-seq">writing…</span>
      </div>
      <div className="strand-content">
        <Markdown text={draft.text} />
      </div>
    </div>
  );
}
