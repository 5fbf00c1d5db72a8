export { dialogue, toolOutputs, userText, type DialogueOptions, type Turn } from './dialogue.js';
export {
  startModelEndpoint,
  type Exchange,
  type ModelEndpoint,
  type Script,
  type Scripted,
} from './endpoint.js';
export { expectedConversation, type ConversationItem, type TypedPrompt } from './expected.js';
export {
  DRIVERS,
  filesUnder,
  type HarnessDriver,
  type PromptOptions,
  type PromptRun,
} from './harness/drivers.js';
export { baseEnv, runHarness, type HarnessRun, type RunOptions } from './harness/process.js';
export {
  bedRoot,
  installHarness,
  installedHarness,
  installedVersion,
  type InstalledHarness,
} from './install/install.js';
export { PINS, pinOf, type BedHarness, type HarnessPin } from './pins.js';
export { claudeScenarios } from './scenarios/claude-code.js';
export { codexScenarios } from './scenarios/codex.js';
export { geminiScenarios } from './scenarios/gemini.js';
export { piScenarios } from './scenarios/pi.js';
export { opencodeScenarios } from './scenarios/opencode.js';
export { qwenScenarios } from './scenarios/qwen.js';
export { copilotScenarios } from './scenarios/copilot.js';
export { kiloScenarios } from './scenarios/kilo.js';
export { clineScenarios } from './scenarios/cline.js';
export {
  DOT_PNG,
  runScenario,
  SCENARIOS,
  ScenarioError,
  SUBTASK,
  type BedRecording,
  type RunScenarioOptions,
  type ScenarioContext,
  type ScenarioDefinition,
  type ScenarioName,
} from './scenarios/scenario.js';
export {
  DEFAULT_USAGE,
  splitText,
  textOf,
  valueForSchema,
  type BedAnswer,
  type BedMessage,
  type BedPart,
  type BedRequest,
  type BedToolCall,
  type BedUsage,
  type SentAnswer,
  type Wire,
} from './wire/conversation.js';
export { openWorkspace, type Workspace } from './workspace.js';
export { bedHarness, type BedAvailability } from './available.js';
export { addShapes, drift, kindOf, type Shapes } from './drift.js';
