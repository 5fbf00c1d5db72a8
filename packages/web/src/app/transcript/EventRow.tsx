import { memo } from 'react';
import { followLink } from '../shared/routing/navigation.js';
import { sessionHref } from '../shared/routing/routes.js';
import { truncate } from '../shared/format.js';
import { CommandChip, CommandOutput } from './CommandChip.js';
import { IdentityLine } from './IdentityLine.js';
import { Content } from './Markdown.js';
import { ResultBody, ToolCard } from './ToolCard.js';
import type { TranscriptRow } from '@strand/transcript';

/** An event's own address (`/sessions/<id>?seq=N`): a real link, so it can be copied or opened in a tab. */
function SeqLink({ sessionId, seq }: { sessionId: string; seq: number }): React.JSX.Element {
  return (
    <a
      className="strand-seq"
      href={sessionHref(sessionId, seq)}
      // Rows are reached with j/k (one Tab stop for the whole transcript), not a link per event.
      tabIndex={-1}
      title="Link to this event"
      onClick={(click) => followLink(click, { kind: 'session', id: sessionId, seq })}
      data-testid="seq-link"
    >
      #{seq}
    </a>
  );
}

/** One row of the transcript model, drawn. */
export const EventRow = memo(function EventRow({
  sessionId,
  row,
  highlighted,
  parentSession,
}: {
  sessionId: string;
  row: TranscriptRow;
  highlighted: boolean;
  parentSession: string | undefined;
}): React.JSX.Element {
  const common = {
    'data-testid': 'event',
    'data-seq': row.seq,
    'data-type': row.type,
    // Focusable by script only: the keyboard moves between rows (transcript/keyboard.ts).
    tabIndex: -1,
    role: 'article',
    ...(highlighted ? ({ 'data-target': 'true', 'aria-current': 'location' } as const) : {}),
  } as const;
  const link = <SeqLink sessionId={sessionId} seq={row.seq} />;
  switch (row.kind) {
    case 'quiet':
      return (
        <div {...common} data-quiet="true" className="strand-quiet">
          {row.text} {link}
        </div>
      );
    case 'user':
      return (
        <div
          {...common}
          data-author={row.author.kind}
          className={`strand-message strand-user strand-author-${row.author.kind}`}
        >
          <div className="strand-message-head" data-testid="message-author">
            {row.author.label} {link}
          </div>
          <Content sessionId={sessionId} content={row.content} />
        </div>
      );
    case 'assistant':
      return (
        <div {...common} className="strand-message strand-assistant">
          <div className="strand-message-head" data-testid="message-author">
            Assistant {link}
          </div>
          {row.content !== undefined && <Content sessionId={sessionId} content={row.content} />}
          {row.calls.map((call) => (
            <ToolCard key={call.id} sessionId={sessionId} call={call} />
          ))}
        </div>
      );
    case 'tool-call':
      return (
        <div {...common}>
          <ToolCard sessionId={sessionId} call={row.call} />
        </div>
      );
    case 'tool-result':
      return (
        <div {...common} className="strand-tool strand-tool-orphan">
          <ResultBody sessionId={sessionId} seq={row.seq} result={row.result} />
        </div>
      );
    case 'command':
      return (
        <div {...common}>
          <CommandChip command={row.command} outputs={row.outputs} link={link} />
        </div>
      );
    case 'command-output':
      return (
        <div {...common}>
          <CommandOutput output={row.output} />
        </div>
      );
    case 'turn-start':
      return (
        <div {...common} className="strand-turn">
          — turn started · {link} —
        </div>
      );
    case 'turn-end':
      return (
        <div {...common} className="strand-turn">
          — turn ended ({row.reason}){row.error !== undefined && `: ${row.error}`} · {link} —
        </div>
      );
    case 'identity':
      return (
        <div {...common} className="strand-quiet">
          <IdentityLine sessionId={sessionId} seq={row.seq} parentSession={parentSession} /> {link}
        </div>
      );
    case 'unknown':
      return (
        <div {...common} className="strand-quiet">
          {row.type} <code>{truncate(JSON.stringify(row.data), 160)}</code> {link}
        </div>
      );
  }
});
