export { commandRows, type CommandOutputEvent, type CommandRows } from './command-rows.js';
export { escapeHtml, markdownHtml, type CodeHighlighter, type MarkdownHtmlOptions } from './markdown-html.js';
export {
  authorLabel,
  contentBlocks,
  DESCRIPTOR_EVENT,
  isEmptyAssistantMessage,
  quietMarker,
  targetRowSeq,
  transcriptRows,
  truncate,
  type Author,
  type Block,
  type ToolCallView,
  type ToolResultEvent,
  type TranscriptRow,
} from './transcript-rows.js';
