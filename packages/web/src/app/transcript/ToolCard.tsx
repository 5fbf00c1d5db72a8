import { useMemo, useState } from 'react';
import { Badge } from '@mantine/core';
import type { CoreEventDataMap } from '@strand/session';
import { isRecord, truncate } from '../shared/format.js';
import { AttachmentImage } from './AttachmentImage.js';
import { editView, type DiffLine } from './diff.js';
import { TerminalText } from './TerminalText.js';
import { contentBlocks, type ToolCallView } from '@strand/transcript';

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

export function ToolCard({
  sessionId,
  call: { name, args, result },
}: {
  sessionId: string;
  call: ToolCallView;
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

export function ResultBody({
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
