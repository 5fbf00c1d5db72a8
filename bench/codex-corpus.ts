import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { mulberry32, type Rng } from '@strand/workload';
import { uuid, words } from './corpus-text.js';

/**
 * A generated Codex CLI corpus for `bench:import`: `YYYY/MM/DD/rollout-<ts>-<uuid>.jsonl` rollouts
 * as Codex 0.77 writes them (docs/transcript-formats.md, "Codex CLI"; the record shapes of
 * `codexRollout` in `@strand/import/testing/synthetic`): `session_meta`, the environment context,
 * then turns of `task_started`, `turn_context`, the prompt (response item and `user_message`), shell
 * calls with their outputs and running token counts, reasoning now and then, and the answer.
 * Varied text (seeded PRNG), so JSON escaping and compression cost what they cost in real logs.
 */
export function generateCodexCorpus(root: string, bytesTarget: number): { bytes: number; files: number } {
  const rng = mulberry32(20_261_206);
  let bytes = 0;
  let files = 0;
  while (bytes < bytesTarget) {
    const day = 1 + Math.floor(rng() * 28);
    const dir = path.join(root, '2026', '03', String(day).padStart(2, '0'));
    mkdirSync(dir, { recursive: true });
    const id = uuid(rng);
    const text = rollout(rng, id, Date.UTC(2026, 2, day, Math.floor(rng() * 24)));
    const stamp = new Date(Date.UTC(2026, 2, day)).toISOString().slice(0, 19).replaceAll(':', '-');
    writeFileSync(path.join(dir, `rollout-${stamp}-${id}.jsonl`), text);
    bytes += Buffer.byteLength(text);
    files++;
  }
  return { bytes, files };
}

function rollout(rng: Rng, id: string, start: number): string {
  const cwd = `/home/dev/${words(rng, 1)}-${Math.floor(rng() * 100)}`;
  let second = 0;
  const lines: string[] = [];
  const line = (type: string, payload: unknown): void => {
    lines.push(JSON.stringify({ timestamp: new Date(start + 1000 * second++).toISOString(), type, payload }));
  };
  line('session_meta', {
    id,
    timestamp: new Date(start).toISOString(),
    cwd,
    originator: 'codex_cli_rs',
    cli_version: '0.77.0',
    source: 'cli',
    model_provider: 'openai',
    base_instructions: { text: 'You are Codex, a coding agent.' },
  });
  line('response_item', {
    type: 'message',
    role: 'user',
    content: [
      { type: 'input_text', text: `<environment_context>\n  <cwd>${cwd}</cwd>\n</environment_context>` },
    ],
  });
  const usage = (i: number, o: number) => ({
    input_tokens: i,
    cached_input_tokens: Math.floor(i * 0.7),
    output_tokens: o,
    reasoning_output_tokens: Math.floor(o / 3),
    total_tokens: i + o,
  });
  let input = 0;
  let output = 0;
  const turns = 2 + Math.floor(rng() * rng() * 30);
  for (let t = 1; t <= turns; t++) {
    const prompt = words(rng, 8 + Math.floor(rng() * 40));
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
    const calls = 1 + Math.floor(rng() * 4);
    for (let c = 0; c < calls; c++) {
      const callId = `call_${t}_${c}`;
      if (rng() < 0.3)
        line('response_item', {
          type: 'reasoning',
          summary: [{ type: 'summary_text', text: words(rng, 20 + Math.floor(rng() * 40)) }],
        });
      const file = `src/${words(rng, 1)}_${t}_${c}.ts`;
      line('response_item', {
        type: 'function_call',
        name: 'shell',
        arguments: JSON.stringify({ command: ['sed', '-n', '1,200p', file], workdir: cwd }),
        call_id: callId,
      });
      const body = Array.from(
        { length: 5 + Math.floor(rng() * 60) },
        (_, i) => `export const ${words(rng, 1)}_${i} = "${words(rng, 5)}"; // ${words(rng, 4)}`,
      ).join('\n');
      line('response_item', {
        type: 'function_call_output',
        call_id: callId,
        output: JSON.stringify({ output: body, metadata: { exit_code: 0, duration_seconds: 0.1 } }),
      });
      const turnIn = 1_000 + Math.floor(rng() * 20_000);
      const turnOut = 20 + Math.floor(rng() * 800);
      input += turnIn;
      output += turnOut;
      line('event_msg', {
        type: 'token_count',
        info: { total_token_usage: usage(input, output), last_token_usage: usage(turnIn, turnOut) },
      });
    }
    const answer = words(rng, 15 + Math.floor(rng() * 80));
    line('event_msg', { type: 'agent_message', message: answer });
    line('response_item', {
      type: 'message',
      role: 'assistant',
      content: [{ type: 'output_text', text: answer }],
    });
    line('event_msg', { type: 'task_complete', turn_id: `T${t}`, last_agent_message: answer });
  }
  return lines.join('\n') + '\n';
}
