import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startModelEndpoint, type Exchange, type ModelEndpoint, type Script } from '../endpoint.js';
import { expectedConversation, type ConversationItem, type TypedPrompt } from '../expected.js';
import { DRIVERS, type PromptOptions, type PromptRun } from '../harness/drivers.js';
import type { InstalledHarness } from '../install/install.js';
import type { BedHarness } from '../pins.js';
import { openWorkspace, type Workspace } from '../workspace.js';

export const SCENARIOS = [
  'multi-turn',
  'tool-calls',
  'subagent',
  'image',
  'slash-command',
  'compaction',
  'resume',
  'interrupt',
] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

/** What a scenario's steps can do: prompt the harness, and say which prompts were typed. */
export interface ScenarioContext {
  readonly workspace: Workspace;
  readonly endpoint: ModelEndpoint;
  /** Runs one prompt; a failed exit fails the scenario unless `allowFailure` (an interrupted run). */
  prompt(options: PromptOptions & { readonly allowFailure?: boolean }): Promise<PromptRun>;
}

/**
 * One scenario for one harness: its script (the model's side), the prompts typed per thread
 * (the person's side, and the parent agent's for a subagent thread), and the steps that drive
 * the harness.
 */
export interface ScenarioDefinition {
  readonly name: ScenarioName;
  readonly script: (workspace: Workspace) => Script;
  readonly prompts: Readonly<Record<string, readonly TypedPrompt[]>>;
  /** Files the scenario needs in the working folder before the harness starts. */
  readonly files?: Readonly<Record<string, string | Buffer>>;
  steps(context: ScenarioContext): Promise<void>;
}

/** What a scenario left behind: the harness's transcripts and what the endpoint saw. */
export interface BedRecording {
  readonly harness: BedHarness;
  readonly version: string;
  readonly scenario: ScenarioName;
  readonly workspace: Workspace;
  /** The folder `strand import <harness> <dir>` reads. */
  readonly transcriptRoot: string;
  /** The harness's id of the session the person talked to. */
  readonly sessionId: string;
  readonly exchanges: readonly Exchange[];
  readonly runs: readonly PromptRun[];
  /** Per conversation thread (`main`, and a subagent's), what the endpoint saw and answered. */
  readonly expected: Readonly<Record<string, readonly ConversationItem[]>>;
}

export class ScenarioError extends Error {
  override readonly name = 'ScenarioError';
}

/** What a caller may add to a scenario run: the workspace, and a step after each prompt. */
export interface RunScenarioOptions {
  /** A workspace the caller opened (to watch its transcript folder before the harness runs). */
  readonly workspace?: Workspace;
  /** Called after each prompt's harness run exits, before the next one starts. */
  readonly afterPrompt?: (run: PromptRun, prompt: PromptOptions) => Promise<void>;
}

/**
 * Runs a scenario against an installed harness in a fresh workspace. The endpoint's problems (a
 * request the script did not expect) and a harness that exits with a failure fail it, with the
 * harness's output in the message.
 */
export async function runScenario(
  installed: InstalledHarness,
  definition: ScenarioDefinition,
  options: RunScenarioOptions = {},
): Promise<BedRecording> {
  const harness = installed.pin.harness;
  const driver = DRIVERS[harness];
  const workspace = options.workspace ?? (await openWorkspace(`${harness}-${definition.name}`));
  for (const [name, content] of Object.entries(definition.files ?? {})) {
    await mkdir(path.dirname(path.join(workspace.cwd, name)), { recursive: true });
    await writeFile(path.join(workspace.cwd, name), content);
  }
  const endpoint = await startModelEndpoint(definition.script(workspace));
  const runs: PromptRun[] = [];
  let sessionId: string | undefined;
  try {
    await driver.prepare(workspace, endpoint);
    await definition.steps({
      workspace,
      endpoint,
      async prompt(prompt) {
        const run = await driver.prompt(installed, workspace, endpoint, prompt);
        runs.push(run);
        if (run.code !== 0 && prompt.allowFailure !== true)
          throw new ScenarioError(
            `${harness} ${definition.name}: exited ${run.code ?? run.signal}\n${run.stderr.slice(-2000)}\n${run.stdout.slice(-2000)}`,
          );
        sessionId ??= run.sessionId;
        await options.afterPrompt?.(run, prompt);
        return run;
      },
    });
  } finally {
    await endpoint.close();
  }
  if (endpoint.problems.length > 0)
    throw new ScenarioError(
      `${harness} ${definition.name}: the endpoint saw what the script did not expect:\n${endpoint.problems.join('\n')}`,
    );
  if (sessionId === undefined)
    throw new ScenarioError(`${harness} ${definition.name}: no run named its session`);
  const expected: Record<string, ConversationItem[]> = {};
  for (const [thread, prompts] of Object.entries(definition.prompts))
    expected[thread] = expectedConversation(
      endpoint.thread(thread),
      prompts,
      thread === 'main' ? 'human' : 'agent',
    );
  return {
    harness,
    version: installed.pin.version,
    scenario: definition.name,
    workspace,
    transcriptRoot: driver.transcriptRoot(workspace),
    sessionId,
    exchanges: endpoint.exchanges,
    runs,
    expected,
  };
}

/** A 1×1 PNG: the image the image scenarios attach. */
export const DOT_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** Marks the subagent's task so its requests are told from the parent's. */
export const SUBTASK = 'SUBTASK: count the files in the working folder and report the number.';
