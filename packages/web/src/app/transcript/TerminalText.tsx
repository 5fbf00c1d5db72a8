import { useMemo } from 'react';
import { isStyled, terminalSegments, type TerminalSegment } from './terminal-segments.js';

function segmentStyle(segment: TerminalSegment): React.CSSProperties {
  const lines = [segment.underline && 'underline', segment.strikethrough && 'line-through'].filter(Boolean);
  return {
    ...(segment.color !== undefined && { color: segment.color }),
    ...(segment.background !== undefined && { backgroundColor: segment.background }),
    ...(segment.bold && { fontWeight: 'bold' }),
    ...(segment.dim && { opacity: 0.6 }),
    ...(segment.italic && { fontStyle: 'italic' }),
    ...(lines.length > 0 && { textDecoration: lines.join(' ') }),
  };
}

/**
 * Output a terminal showed (a tool's, a command's), drawn as a terminal would: colours and styles
 * from its escapes as styled spans, never the escapes themselves, never HTML (the runs are text
 * React escapes). Output with any colour gets a terminal's dark ground, which the standard palette
 * is made for; plain output draws as plain preformatted text.
 */
export function TerminalText({ text, className }: { text: string; className?: string }): React.JSX.Element {
  const segments = useMemo(() => terminalSegments(text), [text]);
  const styled = segments.some(isStyled);
  return (
    <pre
      className={`strand-terminal${className === undefined ? '' : ` ${className}`}`}
      data-testid="terminal-text"
      data-styled={styled}
    >
      {segments.map((segment, index) =>
        isStyled(segment) ? (
          <span key={index} style={segmentStyle(segment)} data-testid="terminal-span">
            {segment.text}
          </span>
        ) : (
          segment.text
        ),
      )}
    </pre>
  );
}
