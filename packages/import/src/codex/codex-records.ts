import type { AttachmentSink, ContentBlock } from '../mapping/attachments.js';
import { growthSince, usage, type Usage } from '../mapping/usage.js';
import { count, isRecord, str, type JsonRecord } from '../source/json-record.js';

/** Rollout record kinds and payload readers shared by the Codex mapping. */

/**
 * Envelope record types with nothing for the event log, counted per type in the summary:
 * compaction bookkeeping (`compacted`: the replacement history), the harness's state snapshot
 * (`world_state`, 0.16x), and per-response usage (`token_usage_record`, 0.16x: read by the usage
 * work; `token_count` events carry the same figures today).
 */
export const QUIET_RECORDS = new Set(['compacted', 'world_state', 'token_usage_record']);
/** response_item payloads that are not conversation: reasoning, git checkpoints, server searches. */
export const QUIET_ITEMS = new Set(['reasoning', 'ghost_snapshot', 'web_search_call']);
/** event_msg payloads that repeat response items or only drive the UI. */
export const QUIET_EVENTS = new Set([
  'user_message',
  'agent_message',
  'agent_reasoning',
  'agent_reasoning_raw_content',
  'agent_reasoning_section_break',
  'context_compacted',
  'item_completed',
  'item_started',
  'exec_command_begin',
  'exec_command_end',
  'exec_command_output_delta',
  'mcp_tool_call_begin',
  'mcp_tool_call_end',
  'patch_apply_begin',
  'patch_apply_end',
  'web_search_begin',
  'web_search_end',
  'view_image_tool_call',
  'turn_diff',
  'plan_update',
  'entered_review_mode',
  'exited_review_mode',
  'background_event',
  'stream_error',
  'warning',
  'thread_name_updated',
  // 0.16x: the settings a turn runs with (its model is read from `turn_context`).
  'thread_settings_applied',
]);
export function callIdOf(p: JsonRecord): string {
  return str(p.call_id) ?? str(p.id) ?? '';
}

// Codex frames an attached image in its own text blocks: `<image name=[Image #1] path="…">`,
// the image, `</image>` (0.16x). The frame is the harness's, not what the person typed.
const IMAGE_FRAME = /^\s*(?:<image\b[^>]*>|<\/image>)\s*$/;

export function messageBlocks(content: unknown, sink: AttachmentSink): ContentBlock[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  const framed = content.some((b) => isRecord(b) && b.type === 'input_image');
  const out: ContentBlock[] = [];
  for (const block of content) {
    if (!isRecord(block)) continue;
    if (
      (block.type === 'input_text' || block.type === 'output_text' || block.type === 'text') &&
      typeof block.text === 'string'
    ) {
      if (!(framed && IMAGE_FRAME.test(block.text))) out.push({ type: 'text', text: block.text });
    } else if (block.type === 'input_image') out.push(sink.imageUrl(str(block.image_url) ?? 'unknown'));
  }
  return out;
}

export function outputOf(output: unknown): { content: string; isError: boolean } {
  if (typeof output === 'string') return { content: output, isError: false };
  if (isRecord(output) && typeof output.content === 'string')
    return { content: output.content, isError: output.success === false };
  return { content: output === undefined || output === null ? '' : JSON.stringify(output), isError: false };
}

/**
 * The usage one `token_count` adds. Rollouts repeat the running total (often twice per request),
 * so the delta of `total_token_usage` is what is new; a total that went down (a new context
 * after compaction) falls back to `last_token_usage`.
 */
export function usageDelta(
  info: unknown,
  before: Usage | undefined,
): { delta: Usage; totals: Usage } | undefined {
  if (!isRecord(info)) return undefined;
  const total = usageOf(info.total_token_usage);
  const last = usageOf(info.last_token_usage);
  if (total === undefined) return last === undefined ? undefined : { delta: last, totals: before ?? last };
  if (before === undefined) return { delta: last ?? total, totals: total };
  const growth = growthSince(total, before);
  return { delta: growth ?? last ?? total, totals: total };
}

/**
 * Codex's token usage in the log's meaning: its `input_tokens` includes the cached part
 * (`cached_input_tokens`), which comes out as cache reads; `output_tokens` includes
 * `reasoning_output_tokens` (its `total_tokens` is input + output).
 */
function usageOf(raw: unknown): Usage | undefined {
  if (!isRecord(raw)) return undefined;
  const cached = count(raw.cached_input_tokens);
  return usage({
    input: Math.max(0, count(raw.input_tokens) - cached),
    cacheRead: cached,
    output: count(raw.output_tokens),
    reasoning: count(raw.reasoning_output_tokens),
  });
}
