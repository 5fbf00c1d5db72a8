export {
  attachmentRefs,
  lastSeqOf,
  turnRunning,
  type ExportAttachment,
  type ExportDocument,
} from './document.js';
export { renderHtml } from './html-format.js';
export {
  EXPORT_RENDERERS,
  exportFileName,
  renderExport,
  withAttachments,
  type AttachmentReader,
} from './formats.js';
export {
  readJsonExport,
  renderJson,
  STRAND_EXPORT_JSON_FORMAT,
  STRAND_EXPORT_JSON_VERSION,
} from './json-format.js';
export { renderMarkdown } from './markdown-format.js';
export {
  CLAUDE_CODE_FORMAT_VERSION,
  ClaudeExportError,
  renderClaudeTranscript,
  type ClaudeExportMarker,
  type ClaudeTranscript,
} from './claude-code/transcript.js';
export { claudeProjectSlug, claudeSessionUuid } from './claude-code/ids.js';
export {
  exportMarkerOfLine,
  readExportMarker,
  STRAND_EXPORT_MARKER,
  strandExportOf,
  type ExportMarkerReading,
  type StrandExportMarker,
} from './marker.js';
export {
  CODEX_FORMAT_VERSION,
  codexThreadId,
  renderCodexRollout,
  type CodexRollout,
} from './codex/rollout.js';
export { GEMINI_FORMAT_VERSION, geminiSessionId, renderGeminiChat, type GeminiChat } from './gemini/chat.js';
export { HarnessExportError, type HarnessTranscript } from './harness-transcript.js';
