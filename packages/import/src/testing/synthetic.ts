/**
 * Synthetic transcripts, written for these tests (no real transcript is copied): a long Codex
 * rollout of as many turns as a test needs, and a Gemini whole-JSON chat with tool calls. The
 * line shapes are the ones docs/transcript-formats.md describes.
 */

const CODE_LINES = [
  'export function handler(request) {',
  '  const body = parse(request.body);',
  '  if (!body.ok) return reply(400, body.error);',
  '  return reply(200, render(body.value));',
  '}',
];

/** Deterministic filler text of about `chars` characters (varies with `seed`). */
function filler(seed: number, chars: number): string {
  let out = '';
  for (let i = 0; out.length < chars; i++)
    out += `${CODE_LINES[(seed + i) % CODE_LINES.length]} // ${seed}.${i}\n`;
  return out;
}

export interface CodexRolloutOptions {
  /** The rollout's session id (a UUID). */
  readonly id: string;
  readonly turns: number;
  /** The first prompt (later prompts are numbered). */
  readonly firstPrompt?: string;
  readonly cwd?: string;
  /** Characters of tool output per turn (makes the file as large as a test needs). */
  readonly outputChars?: number;
}

/**
 * A Codex CLI rollout (JSON lines): `session_meta`, injected context, then per turn
 * `task_started`, `turn_context`, the prompt (response item and `user_message` event), a function
 * call with its output, running token totals, the answer and `task_complete`. A rollout of `n`
 * turns is a byte prefix of the same rollout with more turns, as a growing rollout file is.
 */
export function codexRollout(options: CodexRolloutOptions): string {
  const { id, turns, cwd = '/home/dev/req', outputChars = 1_500 } = options;
  const start = Date.parse('2026-02-10T09:00:00.000Z');
  let second = 0;
  const lines: string[] = [];
  const at = (): string => new Date(start + 1000 * second++).toISOString();
  const line = (type: string, payload: unknown): void => {
    lines.push(JSON.stringify({ timestamp: at(), type, payload }));
  };
  line('session_meta', {
    id,
    timestamp: new Date(start).toISOString(),
    cwd,
    originator: 'codex_cli_rs',
    cli_version: '0.77.0',
    source: 'cli',
    model_provider: 'openai',
    base_instructions: { text: 'You are Codex.' },
  });
  line('response_item', {
    type: 'message',
    role: 'user',
    content: [
      { type: 'input_text', text: `<environment_context>\n  <cwd>${cwd}</cwd>\n</environment_context>` },
    ],
  });
  let input = 0;
  let output = 0;
  for (let t = 1; t <= turns; t++) {
    const prompt = t === 1 ? (options.firstPrompt ?? 'Write a requirement for the parser') : `Next step ${t}`;
    const answer = `Step ${t} is done.`;
    line('event_msg', { type: 'task_started', turn_id: `T${t}`, model_context_window: 258_400 });
    line('turn_context', {
      turn_id: `T${t}`,
      cwd,
      approval_policy: 'on-request',
      sandbox_policy: { type: 'workspace-write' },
      model: 'gpt-5.2',
      effort: 'high',
      summary: 'auto',
    });
    line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: prompt }] });
    line('event_msg', { type: 'user_message', message: prompt, images: [] });
    line('response_item', {
      type: 'function_call',
      name: 'shell',
      arguments: JSON.stringify({ command: ['cat', `src/step-${t}.ts`], workdir: cwd }),
      call_id: `call_${t}`,
    });
    const usage = (i: number, o: number) => ({
      input_tokens: i,
      cached_input_tokens: 0,
      output_tokens: o,
      reasoning_output_tokens: 0,
      total_tokens: i + o,
    });
    input += 1_000;
    output += 40;
    line('event_msg', {
      type: 'token_count',
      info: { total_token_usage: usage(input, output), last_token_usage: usage(1_000, 40) },
    });
    line('response_item', {
      type: 'function_call_output',
      call_id: `call_${t}`,
      output: filler(t, outputChars),
    });
    line('event_msg', { type: 'agent_message', message: answer });
    line('response_item', {
      type: 'message',
      role: 'assistant',
      content: [{ type: 'output_text', text: answer }],
    });
    input += 1_200;
    output += 60;
    line('event_msg', {
      type: 'token_count',
      info: { total_token_usage: usage(input, output), last_token_usage: usage(1_200, 60) },
    });
    line('event_msg', { type: 'task_complete', turn_id: `T${t}`, last_agent_message: answer });
  }
  return lines.join('\n') + '\n';
}

/** Tool calls of `geminiWholeChat`: five reads and two writes, over three model messages. */
export const GEMINI_WHOLE_TOOL_CALLS = 7;

/**
 * A Gemini CLI chat saved as one JSON document (the older whole-file form): session fields and a
 * `messages` array whose `gemini` messages carry `toolCalls` with their results inline.
 */
export function geminiWholeChat(): string {
  const call = (id: string, name: 'read_file' | 'write_file', file: string) => ({
    id,
    name,
    args: name === 'read_file' ? { file_path: file } : { file_path: file, content: filler(id.length, 300) },
    result: [
      {
        functionResponse: {
          id,
          name,
          response: { output: name === 'read_file' ? filler(file.length, 400) : `Wrote ${file}.` },
        },
      },
    ],
    status: 'success',
    timestamp: '2026-03-02T11:00:20.000Z',
  });
  const tokens = (input: number, out: number) => ({
    input,
    output: out,
    cached: 0,
    thoughts: 10,
    tool: 0,
    total: input + out + 10,
  });
  const chat = {
    sessionId: '6b6b6b6b-0000-4000-8000-000000000003',
    projectHash: 'c'.repeat(64),
    startTime: '2026-03-02T11:00:00.000Z',
    lastUpdated: '2026-03-02T11:01:00.000Z',
    messages: [
      {
        id: 'w1',
        timestamp: '2026-03-02T11:00:00.000Z',
        type: 'user',
        content: [{ text: 'Split the guide into a user README and a CONTRIBUTING file' }],
      },
      {
        id: 'w2',
        timestamp: '2026-03-02T11:00:10.000Z',
        type: 'gemini',
        content: '',
        thoughts: [{ subject: 'Reading', description: 'Reading the current documents first.' }],
        tokens: tokens(2_000, 50),
        model: 'gemini-3-pro-preview',
        toolCalls: [
          call('r1', 'read_file', 'README.md'),
          call('r2', 'read_file', 'docs/guide.md'),
          call('r3', 'read_file', 'docs/build.md'),
        ],
      },
      {
        id: 'w3',
        timestamp: '2026-03-02T11:00:30.000Z',
        type: 'gemini',
        content: '',
        tokens: tokens(4_000, 900),
        model: 'gemini-3-pro-preview',
        toolCalls: [
          call('r4', 'read_file', 'package.json'),
          call('r5', 'read_file', 'docs/faq.md'),
          call('w6', 'write_file', 'CONTRIBUTING.md'),
        ],
      },
      {
        id: 'w4',
        timestamp: '2026-03-02T11:00:50.000Z',
        type: 'gemini',
        content: '',
        tokens: tokens(6_000, 700),
        model: 'gemini-3-pro-preview',
        toolCalls: [call('w7', 'write_file', 'README.md')],
      },
      {
        id: 'w5',
        timestamp: '2026-03-02T11:01:00.000Z',
        type: 'gemini',
        content: 'The README is for users now; build and release notes moved to CONTRIBUTING.md.',
        tokens: tokens(7_000, 120),
        model: 'gemini-3-pro-preview',
      },
    ],
    kind: 'main',
  };
  return JSON.stringify(chat, null, 2) + '\n';
}
