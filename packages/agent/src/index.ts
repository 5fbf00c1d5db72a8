export { AGENT_ERROR_CODES, AgentError, isAgentError, type AgentErrorCode } from './errors.js';
export type { Agent, AgentEvent, AgentLease, AgentStatus, PromptOptions, TurnOutcome } from './agent.js';
export { AgentController } from './controller/agent-controller.js';
export { LOCAL_OWNERSHIP, type SessionOwnership } from './controller/ownership.js';
export type {
  ActivateOptions,
  AgentChange,
  AgentControllerOptions,
  CreateSessionOptions,
  TurnSetup,
} from './controller/options.js';
export type {
  FinishReason,
  Model,
  ModelContext,
  ModelMessage,
  ModelRequest,
  ModelResolver,
  ModelRoute,
  ModelStreamPart,
  ModelUsage,
  ModelToolCall,
  ToolSpec,
} from './model/model.js';
export { ScriptedModel, type ScriptedModelOptions } from './model/scripted/scripted-model.js';
export type { ScriptEntry, ScriptStep } from './model/scripted/script.js';
export { ruleStep } from './model/scripted/rules.js';
export {
  OpenAICompatibleModel,
  type OpenAICompatibleConfig,
  type IdleTimers,
} from './model/openai/openai-compatible-model.js';
export { SseDecoder, type SseEvent } from './model/openai/sse.js';
export { modelFromConfig, type ModelConfig } from './model/model-from-config.js';
export {
  ModelSet,
  modelSetFromConfig,
  SCRIPTED_ROUTE,
  type ModelSetEntry,
  type ModelSetOptions,
} from './model/model-set.js';
export {
  defineTool,
  type Tool,
  type ToolContext,
  type ToolOutput,
  type SubagentRuntime,
} from './tools/tool.js';
export { ToolRegistry } from './tools/tool-registry.js';
export { spawnAgentTool, SPAWN_AGENT_TOOL_NAME } from './tools/spawn-agent.js';
export { sendMessageTool, SEND_MESSAGE_TOOL_NAME } from './tools/send-message.js';
export { listAgentsToolFor } from './tools/list-agents.js';
export { subagentTools } from './tools/subagent-tools.js';
export { titleFromPrompt } from './turn/title.js';
export { contextMessages } from './turn/context-messages.js';
