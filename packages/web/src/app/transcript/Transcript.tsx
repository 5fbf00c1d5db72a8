import { memo, useEffect, useMemo, useState } from 'react';
import { Badge, Group, Loader, Text } from '@mantine/core';
import type { FollowDraft } from '@strand/client';
import type { WireEvent } from '@strand/protocol';
import { useStrand } from '../shared/hooks.js';
import { followLink } from '../shared/routing/navigation.js';
import { sessionHref } from '../shared/routing/routes.js';
import { messageText, readCoreEvent, type CoreEventDataMap, type MessageContent } from '@strand/session';
import { describeError, isRecord, truncate } from '../shared/format.js';
import { editView, type DiffLine } from './diff.js';
import { CommandChip, CommandOutput } from './CommandChip.js';
import { commandRows, type CommandRows } from './command-rows.js';
import { TerminalText } from './TerminalText.js';
import { copyText, renderMarkdown } from './markdown.js';
import { DESCRIPTOR_EVENT } from './descriptor-line.js';
import { IdentityLine } from './IdentityLine.js';
import 'highlight.js/styles/github.css';
import './transcript.css';

/** Structural markers carry no content worth a row. */
const HIDDEN = new Set(['step/start', 'step/end']);

type Block = Exclude<MessageContent, string>[number];

/** A message's content as blocks (a plain string is one text block). */
function contentBlocks(content: MessageContent): readonly Block[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}

/**
 * Who wrote a `user/message`: only `human` is the person. `agent` is the parent agent's message
 * to this (child) session; `system` is injected context, told apart by its opening (imported
 * compaction summaries and command caveats).
 */
export function authorLabel(
  author: CoreEventDataMap['user/message']['author'],
  content: MessageContent,
): { label: string; kind: string } {
  if (author === 'human') return { label: 'User', kind: 'human' };
  if (author === 'agent') return { label: 'Parent agent', kind: 'agent' };
  const text = messageText(content).trimStart();
  if (
    /^This session is being continued from a previous conversation/i.test(text) ||
    /^<command-name>\/compact/.test(text)
  )
    return { label: 'Compaction summary', kind: 'compaction' };
  if (/^(<local-command-caveat>|Caveat:)/.test(text)) return { label: 'Caveat', kind: 'caveat' };
  return { label: 'System', kind: 'system' };
}

/** The one-line text of an internal event, or undefined for an event that is not one. */
export function quietMarker(event: WireEvent): string | undefined {
  const core = readCoreEvent(event);
  const route = ({ provider, model, reasoningEffort }: CoreEventDataMap['request/header']): string =>
    `${provider}/${model}${reasoningEffort === undefined || reasoningEffort === '' ? '' : ` (${reasoningEffort})`}`;
  switch (core?.type) {
    case 'model/selection':
      return `model selected: ${route(core.data)}`;
    case 'request/header':
      return `request sent to ${route(core.data)}`;
    case 'session/title':
      return `renamed to “${truncate(core.data.title, 120)}”`;
    case 'agent-preset/select':
      return core.data.preset === null ? 'agent preset cleared' : `agent preset: ${core.data.preset}`;
    case 'session/cost':
      return `the harness reports the session cost so far: $${core.data.usd.toFixed(2)}`;
    default:
      return undefined;
  }
}

/**
 * An assistant message that would be an empty "Assistant" bubble: no text (an image counts as
 * content) and no tool call it has to draw itself. That is an imported record that carried only
 * usage (Codex's `token_count`; its usage is folded by the usage projection), or a streamed chunk
 * that carried only `tool_use` (Claude Code), whose every call is drawn by its own `tool/call` row
 * (`shownCalls`). A call without such a row is drawn inside the bubble, so that message stays.
 */
export function isEmptyAssistantMessage(
  event: WireEvent,
  shownCalls: Pick<ReadonlySet<string>, 'has'> = new Set<string>(),
): boolean {
  const core = readCoreEvent(event);
  if (core?.type !== 'assistant/message') return false;
  if (!(core.data.toolCalls ?? []).every((call) => shownCalls.has(call.id))) return false;
  return messageText(core.data.content).trim() === '';
}

/** The row that draws a tool-only chunk: its first call's `tool/call` row (undefined for any other event). */
function drawnByCallRow(event: WireEvent, callRows: ReadonlyMap<string, number>): number | undefined {
  const core = readCoreEvent(event);
  if (core?.type !== 'assistant/message' || !isEmptyAssistantMessage(event, callRows)) return undefined;
  const seqs = (core.data.toolCalls ?? []).flatMap((call) => callRows.get(call.id) ?? []);
  return seqs.length === 0 ? undefined : Math.min(...seqs);
}

/** A `tool/result` event with its data read. */
interface ToolResultEvent {
  readonly seq: number;
  readonly data: CoreEventDataMap['tool/result'];
}

interface Rows {
  readonly visible: readonly WireEvent[];
  readonly results: ReadonlyMap<string, ToolResultEvent>;
  /** Each call drawn by a `tool/call` row of its own: call id → that row's seq. */
  readonly callEvents: ReadonlyMap<string, number>;
  readonly attached: ReadonlySet<number>;
  readonly commands: CommandRows;
}

function rowsOf(events: readonly WireEvent[]): Rows {
  const results = new Map<string, ToolResultEvent>();
  const callEvents = new Map<string, number>();
  const declared = new Set<string>();
  for (const event of events) {
    const core = readCoreEvent(event);
    if (core?.type === 'tool/result') results.set(core.data.callId, { seq: event.seq, data: core.data });
    else if (core?.type === 'tool/call') callEvents.set(core.data.callId, event.seq);
    else if (core?.type === 'assistant/message')
      for (const call of core.data.toolCalls ?? []) declared.add(call.id);
  }
  const attached = new Set<number>();
  for (const [callId, result] of results)
    if (callEvents.has(callId) || declared.has(callId)) attached.add(result.seq);
  const commands = commandRows(events);
  const visible = events.filter(
    (event) =>
      !HIDDEN.has(event.type) &&
      !attached.has(event.seq) &&
      !commands.attached.has(event.seq) &&
      !isEmptyAssistantMessage(event, callEvents),
  );
  return { visible, results, callEvents, attached, commands };
}

/**
 * The row that shows event `target`: a tool-only chunk's first call row (the card it became);
 * otherwise the last row at or before it, because a hidden event (a step marker, a result drawn
 * inside its call's card) is shown by the row before it; the first row when none is. `undefined`
 * when no event is a row.
 */
export function targetRowSeq(events: readonly WireEvent[], target: number): number | undefined {
  const { visible, callEvents } = rowsOf(events);
  const event = events.find((candidate) => candidate.seq === target);
  const drawnBy = event === undefined ? undefined : drawnByCallRow(event, callEvents);
  if (drawnBy !== undefined) return drawnBy;
  let found = visible[0]?.seq;
  for (const event of visible) {
    if (event.seq > target) break;
    found = event.seq;
  }
  return found;
}

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
  const rows = useMemo(() => rowsOf(events), [events]);
  return (
    <div className="strand-transcript" role="feed" aria-label="Events">
      {rows.visible.map((event) => (
        <EventRow
          key={event.seq}
          sessionId={sessionId}
          event={event}
          rows={rows}
          highlighted={event.seq === highlightSeq}
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

const EventRow = memo(function EventRow({
  sessionId,
  event,
  rows,
  highlighted,
  parentSession,
}: {
  sessionId: string;
  event: WireEvent;
  rows: Rows;
  highlighted: boolean;
  parentSession: string | undefined;
}): React.JSX.Element {
  const common = {
    'data-testid': 'event',
    'data-seq': event.seq,
    'data-type': event.type,
    // Focusable by script only: the keyboard moves between rows (transcript/keyboard.ts).
    tabIndex: -1,
    role: 'article',
    ...(highlighted ? ({ 'data-target': 'true', 'aria-current': 'location' } as const) : {}),
  } as const;
  const quiet = quietMarker(event);
  if (quiet !== undefined)
    return (
      <div {...common} data-quiet="true" className="strand-quiet">
        {quiet} <SeqLink sessionId={sessionId} seq={event.seq} />
      </div>
    );
  const core = readCoreEvent(event);
  switch (core?.type) {
    case 'user/message': {
      const who = authorLabel(core.data.author, core.data.content);
      return (
        <div
          {...common}
          data-author={who.kind}
          className={`strand-message strand-user strand-author-${who.kind}`}
        >
          <div className="strand-message-head" data-testid="message-author">
            {who.label} <SeqLink sessionId={sessionId} seq={event.seq} />
          </div>
          <Content sessionId={sessionId} content={core.data.content} />
        </div>
      );
    }
    case 'assistant/message': {
      const orphans = (core.data.toolCalls ?? []).filter((call) => !rows.callEvents.has(call.id));
      const hasText = messageText(core.data.content).trim() !== '';
      return (
        <div {...common} className="strand-message strand-assistant">
          <div className="strand-message-head" data-testid="message-author">
            Assistant <SeqLink sessionId={sessionId} seq={event.seq} />
          </div>
          {hasText && <Content sessionId={sessionId} content={core.data.content} />}
          {orphans.map((call) => (
            <ToolCard
              key={call.id}
              sessionId={sessionId}
              name={call.name}
              args={call.arguments}
              result={rows.results.get(call.id)}
            />
          ))}
        </div>
      );
    }
    case 'tool/call':
      return (
        <div {...common}>
          <ToolCard
            sessionId={sessionId}
            name={core.data.name}
            args={core.data.arguments}
            result={rows.results.get(core.data.callId)}
          />
        </div>
      );
    case 'tool/result':
      // A result whose call is outside the loaded window: shown alone.
      return (
        <div {...common} className="strand-tool strand-tool-orphan">
          <ResultBody sessionId={sessionId} seq={event.seq} result={core.data} />
        </div>
      );
    case 'session/command':
      return (
        <div {...common}>
          <CommandChip
            command={core.data}
            outputs={rows.commands.outputs.get(event.seq) ?? []}
            link={<SeqLink sessionId={sessionId} seq={event.seq} />}
          />
        </div>
      );
    case 'session/command-output':
      // Output whose command is outside the loaded window: shown alone.
      return (
        <div {...common}>
          <CommandOutput output={{ seq: event.seq, data: core.data }} />
        </div>
      );
    case 'turn/start':
      return (
        <div {...common} className="strand-turn">
          — turn started · <SeqLink sessionId={sessionId} seq={event.seq} /> —
        </div>
      );
    case 'turn/end':
      return (
        <div {...common} className="strand-turn">
          — turn ended ({core.data.reason}){core.data.error !== undefined && `: ${core.data.error}`} ·{' '}
          <SeqLink sessionId={sessionId} seq={event.seq} /> —
        </div>
      );
    default:
      if (event.type === DESCRIPTOR_EVENT)
        return (
          <div {...common} className="strand-quiet">
            <IdentityLine sessionId={sessionId} seq={event.seq} parentSession={parentSession} />{' '}
            <SeqLink sessionId={sessionId} seq={event.seq} />
          </div>
        );
      // A domain's or a newer build's type, or data the vocabulary does not describe: as it is.
      return (
        <div {...common} className="strand-quiet">
          {event.type} <code>{truncate(JSON.stringify(event.data), 160)}</code>{' '}
          <SeqLink sessionId={sessionId} seq={event.seq} />
        </div>
      );
  }
});

const LONG_TEXT = 3_000;

function Content({ sessionId, content }: { sessionId: string; content: MessageContent }): React.JSX.Element {
  const blocks = contentBlocks(content);
  const length = blocks.reduce((sum, block) => sum + (block.type === 'text' ? block.text.length : 0), 0);
  const [expanded, setExpanded] = useState(false);
  const clamp = length > LONG_TEXT && !expanded;
  return (
    <div className={clamp ? 'strand-content strand-clamped' : 'strand-content'}>
      {blocks.map((block, index) =>
        block.type === 'text' ? (
          <Markdown key={index} text={block.text} />
        ) : (
          <AttachmentImage key={index} sessionId={sessionId} attachmentRef={block.ref} />
        ),
      )}
      {length > LONG_TEXT && (
        <button
          type="button"
          className="strand-more"
          onClick={() => setExpanded(!expanded)}
          data-testid="show-more"
        >
          {expanded ? 'Show less' : 'Show more'}
        </button>
      )}
    </div>
  );
}

/** Sanitized markdown; a click on a code block's Copy button copies that block's code. */
export function Markdown({ text }: { text: string }): React.JSX.Element {
  const html = useMemo(() => renderMarkdown(text), [text]);
  return (
    <div
      className="strand-markdown"
      data-testid="markdown"
      onClick={(event) => {
        const button = (event.target as HTMLElement).closest('button.strand-copy');
        if (button === null) return;
        const code = button.closest('.strand-code')?.querySelector('pre code')?.textContent ?? '';
        void copyText(code).then(() => {
          button.textContent = 'Copied';
          setTimeout(() => (button.textContent = 'Copy'), 1500);
        });
      }}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}

const images = new Map<string, Promise<string>>();

function AttachmentImage({
  sessionId,
  attachmentRef,
}: {
  sessionId: string;
  attachmentRef: string;
}): React.JSX.Element {
  const { connection } = useStrand();
  const [src, setSrc] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const key = `${sessionId}\n${attachmentRef}`;
    let pending = images.get(key);
    if (pending === undefined) {
      pending = connection.call('session.attachment', { id: sessionId, ref: attachmentRef }).then((blob) => {
        if (!blob.mediaType.startsWith('image/')) throw new Error(`not an image (${blob.mediaType})`);
        return `data:${blob.mediaType};base64,${blob.base64}`;
      });
      pending.catch(() => images.delete(key));
      images.set(key, pending);
    }
    let alive = true;
    pending.then(
      (url) => alive && setSrc(url),
      (failure: unknown) => alive && setError(describeError(failure)),
    );
    return () => {
      alive = false;
    };
  }, [connection, sessionId, attachmentRef]);
  if (error !== null)
    return (
      <Text size="xs" c="red" data-testid="attachment-error">
        image {attachmentRef}: {error}
      </Text>
    );
  if (src === null)
    return (
      <Group gap={4} data-testid="attachment-loading">
        <Loader size="xs" /> <Text size="xs">image…</Text>
      </Group>
    );
  return (
    <img
      className="strand-image"
      data-testid="attachment-image"
      src={src}
      alt={`attachment ${attachmentRef}`}
    />
  );
}

function prettyArgs(args: string): { parsed: unknown; text: string } {
  try {
    const parsed: unknown = JSON.parse(args);
    return { parsed, text: JSON.stringify(parsed, null, 2) };
  } catch {
    return { parsed: undefined, text: args };
  }
}

function argSummary(parsed: unknown, raw: string): string {
  if (isRecord(parsed)) {
    for (const key of ['path', 'file_path', 'command', 'query', 'pattern', 'url', 'description', 'task']) {
      const value = parsed[key];
      if (typeof value === 'string') return truncate(value.split('\n')[0] ?? '', 80);
    }
    return truncate(Object.keys(parsed).join(', '), 80);
  }
  return truncate(raw.replace(/\s+/g, ' '), 80);
}

function ToolCard({
  sessionId,
  name,
  args,
  result,
}: {
  sessionId: string;
  name: string;
  args: string;
  result: ToolResultEvent | undefined;
}): React.JSX.Element {
  const [open, setOpen] = useState(false);
  const pretty = useMemo(() => prettyArgs(args), [args]);
  const isError = result?.data.isError === true;
  const status = result === undefined ? 'pending' : isError ? 'error' : 'ok';
  return (
    <details
      className={`strand-tool strand-tool-${status}`}
      data-testid="tool-card"
      data-tool={name}
      data-status={status}
      onToggle={(event) => setOpen(event.currentTarget.open)}
    >
      <summary data-testid="tool-summary">
        <span className="strand-tool-name">⚙ {name}</span>
        <span className="strand-tool-args">{argSummary(pretty.parsed, args)}</span>
        <Badge
          size="xs"
          variant="light"
          color={status === 'error' ? 'red' : status === 'ok' ? 'green' : 'gray'}
        >
          {status === 'pending' ? 'no result yet' : status}
        </Badge>
      </summary>
      {open && (
        <div className="strand-tool-body">
          <ToolArgs name={name} pretty={pretty} />
          {result !== undefined && (
            <div data-testid="event" data-seq={result.seq} data-type="tool/result">
              <ResultBody sessionId={sessionId} seq={result.seq} result={result.data} />
            </div>
          )}
        </div>
      )}
      {!open && result !== undefined && (
        // Keeps the attached result's seq in the DOM order while the card is closed.
        <div hidden data-testid="event" data-seq={result.seq} data-type="tool/result" />
      )}
    </details>
  );
}

function ToolArgs({
  name,
  pretty,
}: {
  name: string;
  pretty: { parsed: unknown; text: string };
}): React.JSX.Element {
  const edit = editView(name, pretty.parsed);
  return (
    <>
      {edit !== undefined && <Diff path={edit.path} lines={edit.lines} />}
      <details className="strand-args" open={edit === undefined}>
        <summary>arguments</summary>
        <pre data-testid="tool-args">{pretty.text}</pre>
      </details>
    </>
  );
}

function Diff({ path, lines }: { path: string | undefined; lines: readonly DiffLine[] }): React.JSX.Element {
  const added = lines.filter((line) => line.kind === 'add').length;
  const removed = lines.filter((line) => line.kind === 'del').length;
  return (
    <div className="strand-diff" data-testid="diff">
      <div className="strand-diff-head">
        {path ?? 'edit'} <span className="strand-diff-add">+{added}</span>{' '}
        <span className="strand-diff-del">−{removed}</span>
      </div>
      <pre>
        {lines.map((line, index) => (
          <div key={index} className={`strand-diff-${line.kind}`} data-kind={line.kind}>
            {line.kind === 'add' ? '+ ' : line.kind === 'del' ? '- ' : '  '}
            {line.text}
          </div>
        ))}
      </pre>
    </div>
  );
}

const LONG_RESULT_LINES = 20;
const LONG_RESULT_CHARS = 2_000;

function ResultBody({
  sessionId,
  seq,
  result,
}: {
  sessionId: string;
  seq: number;
  result: CoreEventDataMap['tool/result'];
}): React.JSX.Element {
  const blocks = contentBlocks(result.content);
  const isError = result.isError === true;
  const { code } = result;
  const text = blocks
    .filter((block) => block.type === 'text')
    .map((block) => block.text)
    .join('\n');
  const lines = text.split('\n').length;
  const long = lines > LONG_RESULT_LINES || text.length > LONG_RESULT_CHARS;
  const body = (
    <>
      {text !== '' && <TerminalText className="strand-result-text" text={text} />}
      {blocks.map((block, index) =>
        block.type === 'image' ? (
          <AttachmentImage key={index} sessionId={sessionId} attachmentRef={block.ref} />
        ) : null,
      )}
    </>
  );
  return (
    <div
      className={isError ? 'strand-result strand-result-error' : 'strand-result'}
      data-testid="tool-result"
      data-error={isError}
    >
      <div className="strand-result-head">
        {isError ? '✗ error' : '↳ result'}
        {code !== undefined && <code> {code}</code>} <span className="strand-seq">#{seq}</span>
      </div>
      {long ? (
        <details data-testid="long-result">
          <summary>
            {lines.toLocaleString()} lines, {text.length.toLocaleString()} characters — show
          </summary>
          {body}
        </details>
      ) : (
        body
      )}
    </div>
  );
}
