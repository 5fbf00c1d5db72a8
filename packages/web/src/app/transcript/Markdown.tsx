import { useMemo, useState, useSyncExternalStore } from 'react';
import type { MessageContent } from '@strand/session';
import { AttachmentImage } from './AttachmentImage.js';
import { copyText, highlighterVersion, renderMarkdown, subscribeHighlighter } from './markdown.js';
import { contentBlocks } from '@strand/transcript';

const LONG_TEXT = 3_000;

/** A message's blocks: markdown text and images, clamped past `LONG_TEXT` characters ("Show more"). */
export function Content({
  sessionId,
  content,
}: {
  sessionId: string;
  content: MessageContent;
}): React.JSX.Element {
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
  // Drawn again once highlight.js has loaded (a block with a language was plain text until then).
  const highlighted = useSyncExternalStore(subscribeHighlighter, highlighterVersion);
  const html = useMemo(() => renderMarkdown(text), [text, highlighted]);
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
