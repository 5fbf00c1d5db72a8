import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ModelEndpoint } from '../endpoint.js';
import type { InstalledHarness } from '../install/install.js';
import type { BedHarness } from '../pins.js';
import type { Workspace } from '../workspace.js';
import { baseEnv, runHarness, type HarnessRun } from './process.js';

/** One prompt to a harness: a new session, or a resumed one. */
export interface PromptOptions {
  readonly text: string;
  /** The harness's own session id to resume. */
  readonly resume?: string;
  /** Image files (in the workspace's working folder) attached to the prompt. */
  readonly images?: readonly string[];
  /** Further prompts given in the same process, each after the previous answer (Claude Code only). */
  readonly also?: readonly string[];
  readonly interruptWhen?: Promise<unknown>;
  /** Harness-specific arguments (e.g. Claude Code's `--allowedTools`). */
  readonly args?: readonly string[];
}

export interface PromptRun extends HarnessRun {
  /** The harness's id of the session the prompt ran in, when its output names it. */
  readonly sessionId: string | undefined;
}

/**
 * How to drive one harness offline: where it keeps transcripts, how it is pointed at the bed's
 * endpoint, and how one prompt is given to it. Each is the harness's documented non-interactive
 * mode (`claude -p`, `codex exec`, `gemini -p`).
 */
export interface HarnessDriver {
  readonly harness: BedHarness;
  /** The model the harness is configured with; `undefined`: the harness's own default. */
  readonly model: string | undefined;
  /** The folder `strand import <harness> <dir>` and `serve --watch` read. */
  transcriptRoot(ws: Workspace): string;
  /** Writes the harness's configuration into the workspace's home. */
  prepare(ws: Workspace, endpoint: ModelEndpoint): Promise<void>;
  prompt(
    installed: InstalledHarness,
    ws: Workspace,
    endpoint: ModelEndpoint,
    options: PromptOptions,
  ): Promise<PromptRun>;
}

/** The session id the CLI's JSON output names: one document, or the first JSON line that has it. */
function sessionIdIn(stdout: string, key: string): string | undefined {
  for (const line of [stdout, ...stdout.split('\n')]) {
    const trimmed = line.trim();
    if (!trimmed.startsWith('{')) continue;
    try {
      const value = (JSON.parse(trimmed) as Record<string, unknown>)[key];
      if (typeof value === 'string') return value;
    } catch {
      // Not a JSON line (a progress note): keep looking.
    }
  }
  return undefined;
}

/**
 * Claude Code (`claude -p`): `ANTHROPIC_BASE_URL` points it at the endpoint (Anthropic
 * Messages); transcripts under `~/.claude/projects/<cwd slug>/<session>.jsonl`. A prompt with
 * images goes through `--input-format stream-json`, the SDK's way to send content blocks.
 */
export const claudeCode: HarnessDriver = {
  harness: 'claude-code',
  // Claude Code's own default model, as a new user has it.
  model: undefined,
  transcriptRoot: (ws) => path.join(ws.home, '.claude', 'projects'),
  prepare: () => Promise.resolve(),
  async prompt(installed, ws, endpoint, options) {
    const env = {
      ...baseEnv(ws.home),
      ANTHROPIC_BASE_URL: endpoint.url,
      ANTHROPIC_API_KEY: 'sk-bed-offline',
    };
    const args = ['-p', ...(options.resume === undefined ? [] : ['--resume', options.resume])];
    let stdin: string | undefined;
    if ((options.images ?? []).length > 0 || (options.also ?? []).length > 0) {
      const content: unknown[] = [{ type: 'text', text: options.text }];
      for (const image of options.images ?? [])
        content.push({
          type: 'image',
          source: {
            type: 'base64',
            media_type: 'image/png',
            data: (await readFile(path.join(ws.cwd, image))).toString('base64'),
          },
        });
      const messages = [content, ...(options.also ?? [])];
      stdin = messages
        .map((c) => `${JSON.stringify({ type: 'user', message: { role: 'user', content: c } })}\n`)
        .join('');
      args.push('--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose');
    } else args.push(options.text, '--output-format', 'json');
    args.push(...(options.args ?? []));
    const run = await runHarness(installed, {
      args,
      cwd: ws.cwd,
      env,
      stdin,
      interruptWhen: options.interruptWhen,
    });
    return { ...run, sessionId: sessionIdIn(run.stdout, 'session_id') ?? options.resume };
  },
};

/**
 * Codex CLI (`codex exec`): a `model_provider` in `$CODEX_HOME/config.toml` with the endpoint as
 * `base_url` and `wire_api = "responses"`; rollouts under `$CODEX_HOME/sessions/YYYY/MM/DD/`.
 * The model is one Codex knows (`gpt-5.5`), so it offers its full tool set (`apply_patch`,
 * `spawn_agent`); an unknown name gets fallback metadata and fewer tools.
 */
export const codex: HarnessDriver = {
  harness: 'codex',
  model: 'gpt-5.5',
  transcriptRoot: (ws) => path.join(ws.home, '.codex', 'sessions'),
  async prepare(ws, endpoint) {
    const codexHome = path.join(ws.home, '.codex');
    await mkdir(codexHome, { recursive: true });
    await writeFile(
      path.join(codexHome, 'config.toml'),
      [
        `model = "${this.model ?? ''}"`,
        'model_provider = "bed"',
        '',
        '[model_providers.bed]',
        'name = "Strand harness bed"',
        `base_url = "${endpoint.url}/v1"`,
        'wire_api = "responses"',
        'env_key = "BED_API_KEY"',
        '',
      ].join('\n'),
    );
  },
  async prompt(installed, ws, _endpoint, options) {
    refuseAlso(this.harness, options);
    const env = { ...baseEnv(ws.home), CODEX_HOME: path.join(ws.home, '.codex'), BED_API_KEY: 'bed-offline' };
    const args = [
      'exec',
      '--skip-git-repo-check',
      '--dangerously-bypass-approvals-and-sandbox',
      '--json',
      ...(options.resume === undefined ? [] : ['resume', options.resume]),
      options.text,
      ...(options.images ?? []).flatMap((image) => ['-i', image]),
      ...(options.args ?? []),
    ];
    const run = await runHarness(installed, {
      args,
      cwd: ws.cwd,
      env,
      interruptWhen: options.interruptWhen,
    });
    return { ...run, sessionId: sessionIdIn(run.stdout, 'thread_id') ?? options.resume };
  },
};

/**
 * Gemini CLI (`gemini -p`): `GOOGLE_GEMINI_BASE_URL` points the Gemini API client at the
 * endpoint. That variable alone selects the `gateway` auth type, which the CLI's own check
 * refuses ("Invalid auth method selected"), so `settings.json` selects `gemini-api-key` and
 * `GEMINI_API_KEY` is any value. `-m` names the model: without it the CLI first asks a router
 * model to classify the prompt. Headless runs need a trusted folder
 * (`GEMINI_CLI_TRUST_WORKSPACE=true`). Chats under `~/.gemini/tmp/<project>/chats/`.
 */
export const gemini: HarnessDriver = {
  harness: 'gemini',
  model: 'gemini-2.5-flash',
  transcriptRoot: (ws) => path.join(ws.home, '.gemini', 'tmp'),
  async prepare(ws) {
    const dir = path.join(ws.home, '.gemini');
    await mkdir(dir, { recursive: true });
    await writeFile(
      path.join(dir, 'settings.json'),
      JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }, null, 2),
    );
  },
  async prompt(installed, ws, endpoint, options) {
    refuseAlso(this.harness, options);
    const env = {
      ...baseEnv(ws.home),
      GEMINI_API_KEY: 'bed-offline',
      GOOGLE_GEMINI_BASE_URL: endpoint.url,
      GEMINI_CLI_TRUST_WORKSPACE: 'true',
    };
    const text = [options.text, ...(options.images ?? []).map((image) => `@${image}`)].join(' ');
    const args = [
      '-m',
      this.model ?? '',
      '--yolo',
      '--output-format',
      'json',
      ...(options.resume === undefined ? [] : ['--resume', options.resume]),
      '-p',
      text,
      ...(options.args ?? []),
    ];
    const run = await runHarness(installed, {
      args,
      cwd: ws.cwd,
      env,
      interruptWhen: options.interruptWhen,
    });
    return { ...run, sessionId: sessionIdIn(run.stdout, 'session_id') ?? options.resume };
  },
};

/**
 * pi (`pi -p`): a custom provider in `$PI_CODING_AGENT_DIR/models.json` (`~/.pi/agent/`) whose
 * `baseUrl` is the endpoint and whose `api` is `anthropic-messages`; `PI_OFFLINE=1` turns off its
 * start-up network calls (version check, package updates). `--session <id>` resumes by id prefix;
 * `@file` arguments attach images. Sessions under `~/.pi/agent/sessions/--<cwd>--/`.
 */
export const pi: HarnessDriver = {
  harness: 'pi',
  model: 'claude-sonnet-4-5',
  transcriptRoot: (ws) => path.join(ws.home, '.pi', 'agent', 'sessions'),
  async prepare(ws, endpoint) {
    const dir = path.join(ws.home, '.pi', 'agent');
    await mkdir(dir, { recursive: true });
    await writeFile(
      path.join(dir, 'models.json'),
      JSON.stringify(
        {
          providers: {
            bed: {
              baseUrl: endpoint.url,
              api: 'anthropic-messages',
              apiKey: 'bed-offline',
              models: [{ id: this.model, input: ['text', 'image'], contextWindow: 200_000, maxTokens: 8192 }],
            },
          },
        },
        null,
        2,
      ),
    );
  },
  async prompt(installed, ws, _endpoint, options) {
    refuseAlso(this.harness, options);
    const env = { ...baseEnv(ws.home), PI_OFFLINE: '1' };
    const args = [
      '--provider',
      'bed',
      '--model',
      this.model ?? '',
      '--mode',
      'json',
      ...(options.resume === undefined ? [] : ['--session', options.resume]),
      ...(options.args ?? []),
      '-p',
      options.text,
      ...(options.images ?? []).map((image) => `@${image}`),
    ];
    const run = await runHarness(installed, {
      args,
      cwd: ws.cwd,
      env,
      interruptWhen: options.interruptWhen,
    });
    return { ...run, sessionId: sessionIdIn(run.stdout, 'id') ?? options.resume };
  },
};

/**
 * The config opencode and its fork kilo read: a custom provider `bed` — the bundled
 * `@ai-sdk/openai-compatible` with `options.baseURL` at the endpoint (OpenAI Chat Completions,
 * SSE) and one model declared with tool calls and attachments — as the default and small model,
 * with updates and sharing off.
 */
async function writeOpencodeStyleConfig(
  file: string,
  schema: string,
  model: string,
  endpoint: { readonly url: string },
): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const config = {
    $schema: schema,
    autoupdate: false,
    share: 'disabled',
    model: `bed/${model}`,
    small_model: `bed/${model}`,
    provider: {
      bed: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Strand harness bed',
        options: { baseURL: `${endpoint.url}/v1`, apiKey: 'bed-offline' },
        models: {
          [model]: {
            name: 'Bed model',
            tool_call: true,
            attachment: true,
            modalities: { input: ['text', 'image'], output: ['text'] },
            limit: { context: 200_000, output: 32_000 },
          },
        },
      },
    },
  };
  await writeFile(file, JSON.stringify(config, null, 2));
}

/**
 * `run --format json --auto` (tools run without asking, in the scratch workspace only), the
 * session to resume — `latest`: the run to resume printed no id (stopped before its first
 * event), so `--continue` — and attached images; the prompt goes on stdin.
 */
function opencodeStyleRunArgs(options: PromptOptions): string[] {
  return [
    'run',
    '--format',
    'json',
    '--auto',
    ...(options.resume === undefined
      ? []
      : options.resume === 'latest'
        ? ['--continue']
        : ['--session', options.resume]),
    ...(options.images ?? []).flatMap((image) => ['--file', image]),
    ...(options.args ?? []),
  ];
}

/**
 * opencode (`opencode run`): a custom provider in `$HOME/.config/opencode/opencode.json` — the
 * bundled `@ai-sdk/openai-compatible` with `options.baseURL` at the endpoint (OpenAI Chat
 * Completions, SSE) and one model declared with tool calls and attachments. The model catalog
 * is not fetched (`OPENCODE_DISABLE_MODELS_FETCH`), nor an update (`autoupdate: false`). Tools
 * run without asking (`--auto`, the scratch workspace only). Sessions in
 * `$HOME/.local/share/opencode/opencode.db` (SQLite, WAL).
 */
export const opencode: HarnessDriver = {
  harness: 'opencode',
  model: 'bed-model',
  transcriptRoot: (ws) => path.join(ws.home, '.local', 'share', 'opencode'),
  async prepare(ws, endpoint) {
    await writeOpencodeStyleConfig(
      path.join(ws.home, '.config', 'opencode', 'opencode.json'),
      'https://opencode.ai/config.json',
      this.model ?? '',
      endpoint,
    );
  },
  async prompt(installed, ws, _endpoint, options) {
    refuseAlso(this.harness, options);
    const env = {
      ...baseEnv(ws.home),
      OPENCODE_DISABLE_MODELS_FETCH: '1',
      OPENCODE_DISABLE_AUTOUPDATE: '1',
    };
    const run = await runHarness(installed, {
      args: opencodeStyleRunArgs(options),
      cwd: ws.cwd,
      env,
      // On stdin, as a pipe gives it: `run` quotes every argument that holds a space.
      stdin: options.text,
      interruptWhen: options.interruptWhen,
    });
    return { ...run, sessionId: sessionIdIn(run.stdout, 'sessionID') ?? options.resume };
  },
};

/**
 * Qwen Code (`qwen -p`), a Gemini CLI fork that speaks OpenAI Chat Completions: `--auth-type
 * openai` with `OPENAI_BASE_URL` (the endpoint's `/v1`), any `OPENAI_API_KEY` and `OPENAI_MODEL`
 * (its `AUTH_ENV_MAPPINGS.openai`). Chats under `~/.qwen/projects/<sanitized cwd>/chats/`.
 */
export const qwen: HarnessDriver = {
  harness: 'qwen',
  model: 'qwen3-coder-plus',
  transcriptRoot: (ws) => path.join(ws.home, '.qwen', 'projects'),
  async prepare(ws) {
    const dir = path.join(ws.home, '.qwen');
    await mkdir(dir, { recursive: true });
    await writeFile(
      path.join(dir, 'settings.json'),
      JSON.stringify(
        {
          security: { auth: { selectedType: 'openai' } },
          // After each turn the CLI would ask the model, in requests of its own, what to remember
          // (managed auto-memory) and to consolidate it ("dream"): a side conversation the
          // scenarios do not script.
          memory: { enableManagedAutoMemory: false, enableManagedAutoDream: false },
        },
        null,
        2,
      ),
    );
  },
  async prompt(installed, ws, endpoint, options) {
    refuseAlso(this.harness, options);
    const env = {
      ...baseEnv(ws.home),
      OPENAI_API_KEY: 'bed-offline',
      OPENAI_BASE_URL: `${endpoint.url}/v1`,
      OPENAI_MODEL: this.model ?? '',
    };
    const text = [options.text, ...(options.images ?? []).map((image) => `@${image}`)].join(' ');
    const args = [
      '--auth-type',
      'openai',
      '--yolo',
      '--output-format',
      'json',
      ...(options.resume === undefined ? [] : ['--resume', options.resume]),
      '-p',
      text,
      ...(options.args ?? []),
    ];
    const run = await runHarness(installed, {
      args,
      cwd: ws.cwd,
      env,
      interruptWhen: options.interruptWhen,
    });
    return { ...run, sessionId: sessionIdInArray(run.stdout) ?? options.resume };
  },
};

/**
 * Kilo Code's CLI (`kilo run`), an opencode fork: the same custom provider as opencode's, in
 * `$HOME/.config/kilo/kilo.json` (its config loader reads `config.json`, `kilo.json`,
 * `kilo.jsonc`, `opencode.json`, `opencode.jsonc` in `Global.Path.config`, XDG's `kilo` folder).
 * `KILO_DISABLE_MODELS_FETCH`, `KILO_DISABLE_AUTOUPDATE` and `autoupdate: false` keep it off the
 * network; the Kilo gateway provider is not configured (no key), so the `bed` provider is the
 * only one. Sessions in `$HOME/.local/share/kilo/kilo.db` (SQLite, WAL).
 */
export const kilo: HarnessDriver = {
  harness: 'kilo',
  model: 'bed-model',
  transcriptRoot: (ws) => path.join(ws.home, '.local', 'share', 'kilo'),
  async prepare(ws, endpoint) {
    await writeOpencodeStyleConfig(
      path.join(ws.home, '.config', 'kilo', 'kilo.json'),
      'https://app.kilo.ai/config.json',
      this.model ?? '',
      endpoint,
    );
  },
  async prompt(installed, ws, _endpoint, options) {
    refuseAlso(this.harness, options);
    const env = {
      ...baseEnv(ws.home),
      KILO_DISABLE_MODELS_FETCH: '1',
      KILO_DISABLE_AUTOUPDATE: '1',
      // What the npm wrapper sets before it spawns the binary: tree-sitter's WASM beside it.
      KILO_TREE_SITTER_WASM_DIR: path.join(path.dirname(installed.command), 'tree-sitter'),
    };
    const run = await runHarness(installed, {
      args: opencodeStyleRunArgs(options),
      cwd: ws.cwd,
      env,
      stdin: options.text,
      // A hang guard, not a timing: kilo takes some 10 s to start and a few seconds per step
      // (a git snapshot of the workspace each time), so a four-step run on a loaded machine can
      // pass the default two minutes while still answering.
      killAfterMs: 300_000,
      interruptWhen: options.interruptWhen,
    });
    return { ...run, sessionId: sessionIdIn(run.stdout, 'sessionID') ?? options.resume };
  },
};

/**
 * Cline's CLI 3.x (`cline --json "<prompt>"`), on Cline's SDK: its OpenAI-compatible provider in
 * `~/.cline/data/settings/providers.json` (what `cline auth -p openai -k … -b <url>/v1 -m …`
 * writes) speaks Chat Completions to the endpoint. `--data-dir` (sandbox mode) keeps the run
 * local: without it the CLI starts a detached hub daemon (`--cline-hub-daemon`) that outlives the
 * run and its process group. `--id` resumes only in the interactive TUI, so every headless run is
 * a session of its own. The JSON output names no session id: the run's session is the folder it
 * added under `sessions/`.
 */
export const cline: HarnessDriver = {
  harness: 'cline',
  model: 'bed-model',
  transcriptRoot: (ws) => path.join(ws.home, '.cline', 'data', 'sessions'),
  async prepare(ws, endpoint) {
    const dir = path.join(ws.home, '.cline', 'data', 'settings');
    await mkdir(dir, { recursive: true });
    const settings = {
      provider: 'openai-compatible',
      apiKey: 'bed-offline',
      model: this.model,
      baseUrl: `${endpoint.url}/v1`,
    };
    await writeFile(
      path.join(dir, 'providers.json'),
      JSON.stringify(
        {
          version: 1,
          lastUsedProvider: 'openai-compatible',
          modes: {},
          providers: {
            'openai-compatible': { settings, updatedAt: new Date(0).toISOString(), tokenSource: 'manual' },
          },
        },
        null,
        2,
      ),
    );
  },
  async prompt(installed, ws, endpoint, options) {
    refuseAlso(this.harness, options);
    if (options.resume !== undefined) throw new Error('cline resumes a session only in its interactive TUI');
    const root = this.transcriptRoot(ws);
    const before = new Set(await readdir(root).catch(() => [] as string[]));
    const run = await runHarness(installed, {
      args: [
        '--json',
        '--data-dir',
        path.join(ws.home, '.cline', 'data'),
        ...(options.args ?? []),
        options.text,
      ],
      cwd: ws.cwd,
      env: { ...baseEnv(ws.home), CLINE_NO_AUTO_UPDATE: '1' },
      interruptWhen: options.interruptWhen,
    });
    const added = (await readdir(root).catch(() => [] as string[])).filter((name) => !before.has(name));
    return { ...run, sessionId: added.sort()[0] };
  },
};

/** `qwen -o json` prints one JSON array of stream messages; each names the session. */
function sessionIdInArray(stdout: string): string | undefined {
  const start = stdout.indexOf('[');
  if (start < 0) return undefined;
  try {
    const messages = JSON.parse(stdout.slice(start)) as unknown;
    if (!Array.isArray(messages)) return undefined;
    for (const m of messages) {
      const id = (m as Record<string, unknown> | null)?.session_id;
      if (typeof id === 'string') return id;
    }
  } catch {
    // Not the whole array (a run killed mid-output): no id.
  }
  return undefined;
}

/**
 * GitHub Copilot CLI (`copilot -p`): its BYOK provider, `COPILOT_PROVIDER_BASE_URL` at the
 * endpoint with `COPILOT_PROVIDER_TYPE=anthropic` (Anthropic Messages, SSE; its client appends
 * `/v1/messages`) and any `COPILOT_PROVIDER_API_KEY`, needs no GitHub login;
 * `COPILOT_OFFLINE=true` turns off every other network call (auth, telemetry, auto-update).
 * `COPILOT_MODEL` is one Copilot knows, so it has its limits and tool set. The single-executable
 * binary unpacks its JavaScript under `COPILOT_PKG_CACHE_HOME` on first start: kept in the install
 * prefix, so each scratch home does not unpack 200 MB again. `--output-format json` prints the
 * session's events and a last `result` line naming `sessionId`; `--resume=<id>` resumes;
 * `--attachment <file>` attaches an image. Sessions under
 * `~/.copilot/session-state/<id>/events.jsonl` (`COPILOT_HOME` overrides `~/.copilot`).
 */
export const copilot: HarnessDriver = {
  harness: 'copilot',
  model: 'claude-sonnet-4.5',
  transcriptRoot: (ws) => path.join(ws.home, '.copilot', 'session-state'),
  prepare: () => Promise.resolve(),
  async prompt(installed, ws, endpoint, options) {
    refuseAlso(this.harness, options);
    const env = {
      ...baseEnv(ws.home),
      COPILOT_OFFLINE: 'true',
      COPILOT_PROVIDER_BASE_URL: endpoint.url,
      COPILOT_PROVIDER_TYPE: 'anthropic',
      COPILOT_PROVIDER_API_KEY: 'bed-offline',
      COPILOT_MODEL: this.model ?? '',
      COPILOT_PKG_CACHE_HOME: path.join(installed.prefix, 'pkg-cache'),
    };
    const args = [
      '--allow-all',
      '--no-auto-update',
      '--output-format',
      'json',
      ...(options.resume === undefined ? [] : [`--resume=${options.resume}`]),
      ...(options.images ?? []).flatMap((image) => ['--attachment', image]),
      ...(options.args ?? []),
      '-p',
      options.text,
    ];
    const run = await runHarness(installed, {
      args,
      cwd: ws.cwd,
      env,
      interruptWhen: options.interruptWhen,
    });
    return { ...run, sessionId: sessionIdIn(run.stdout, 'sessionId') ?? options.resume };
  },
};

function refuseAlso(harness: BedHarness, options: PromptOptions): void {
  if ((options.also ?? []).length > 0)
    throw new Error(`${harness} takes one prompt per headless run: resume the session for the next`);
}

export const DRIVERS: Readonly<Record<BedHarness, HarnessDriver>> = {
  'claude-code': claudeCode,
  codex,
  gemini,
  pi,
  opencode,
  qwen,
  copilot,
  kilo,
  cline,
};

/** Every file under a folder (the transcripts a run wrote), relative paths, sorted. */
export async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else if (e.isFile()) out.push(path.relative(dir, p));
    }
  };
  await walk(dir);
  return out.sort();
}
