/**
 * The Claude Code record types the mapping knows and leaves out, with why (the import summary
 * counts them per type; docs/transcript-formats.md lists them). A type in none of these lists and
 * not mapped is reported as unknown, once per file: the day a new version writes one, the bed's
 * tests and `npm run bed:latest` say so.
 */

/** Line types that are bookkeeping of the harness, not conversation. */
export const SIDE_RECORDS: ReadonlyMap<string, string> = new Map([
  ['queue-operation', 'the prompt queue (enqueue/dequeue of what was typed)'],
  ['file-history-snapshot', 'file backups for rewinds'],
  ['last-prompt', 'the last prompt, for the resume picker'],
  ['agent-name', 'a subagent name for the picker'],
  ['atis-latch', 'an internal latch'],
  ['api-request', 'the request log: parameters of each model call'],
  ['api-request-shape', 'the request log: the shape of the system prompt and tools'],
  ['api-request-blob', 'the request log: content blobs of requests'],
  ['mode', 'the permission mode in effect'],
  ['tools-used', 'the tool names used so far'],
]);

/**
 * `attachment` records (2.1.3xx) whose content is context the harness gives the model, not
 * something anyone typed or attached: counted as `attachment:<type>`.
 */
export const CONTEXT_ATTACHMENTS: ReadonlyMap<string, string> = new Map([
  ['environment', 'the working folder, platform and shell'],
  ['date', "today's date"],
  ['deferred_tools_delta', 'tools announced for tool search'],
  ['agent_listing_delta', 'the subagent types available'],
  ['skill_listing', 'the skills available'],
  ['session_context', 'session context sections'],
  ['remote_session_change', 'commit and pull-request attribution'],
  ['prompt_snapshot', 'a snapshot of the system prompt'],
  ['command_permissions', "a slash command's allowed tools"],
  ['mcp_instructions_delta', "MCP servers' instructions"],
  ['critical_system_reminder', 'a reminder to the model'],
  ['todo_reminder', 'the todo list, reminded'],
  ['task_reminder', 'the task list, reminded'],
  ['nested_memory', 'CLAUDE.md files of nested folders'],
  ['relevant_memories', 'memories recalled'],
  ['invoked_skills', 'skills invoked'],
  ['already_read_file', 'a file the model already read'],
  ['edited_text_file', 'a file edited outside the conversation'],
  ['plan_mode', 'plan mode instructions'],
  ['plan_mode_exit', 'plan mode left'],
  ['hook_success', "a hook's output"],
  ['hook_additional_context', 'context a hook added'],
  ['hook_non_blocking_error', "a hook's error"],
  ['hook_blocking_error', "a hook's blocking error"],
  ['hook_system_message', "a hook's message"],
]);
