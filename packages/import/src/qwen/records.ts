/**
 * `system` record subtypes Qwen Code 0.24 writes (its `ChatRecordingService` and the subagent
 * transcript writer) that hold nothing for the event log: bookkeeping for resume (attribution and
 * file-history snapshots, branch checkpoints, the session's model, source and parent), telemetry
 * replayed into its UI (`ui_telemetry`: one per API response and tool call, repeating what the
 * message records hold), the Goal runtime's state, `@`-command and artifact notes, and a
 * subagent's readiness and bootstrap. Counted in the import summary as left out.
 */
export const QUIET_SYSTEM = new Set([
  'ui_telemetry',
  'attribution_snapshot',
  'file_history_snapshot',
  'branch_checkpoint',
  'session_model',
  'session_source',
  'session_sources_snapshot',
  'parent_session',
  'goal_state',
  'goal_turn_end',
  'background_task_completed',
  'omni_recall',
  'at_command',
  'session_artifact_event',
  'session_artifact_snapshot',
  'session_recording_degraded',
  'turn_result',
  'user_text_elements',
  'agent_session_ready',
  'agent_bootstrap',
  'agent_launch_prompt',
  'agent_retry',
]);

/**
 * `user` record subtypes that no person typed: background-agent and cron notifications
 * (`provenance: "system"`, shown by Qwen Code as info items) and the Goal runtime's own messages.
 */
export const NOTICE_USER = new Set(['notification', 'cron', 'goal_runtime']);
