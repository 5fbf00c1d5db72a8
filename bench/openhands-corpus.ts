import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Rng } from '@strand/workload';

/**
 * A generated OpenHands store for `bench:import` (`importMBpsByHarness.openhands`): conversation
 * folders `<id>/events/<n>.json`, one file per event as OpenHands's event stream writes them
 * (`event_to_dict`): prompts, `run` actions with their observations, agent messages, agent state
 * changes, `llm_metrics` running totals. Deterministic for a given `rng`.
 */
export function generateOpenhandsCorpus(
  root: string,
  bytesTarget: number,
  rng: Rng,
  words: (rng: Rng, n: number) => string,
): { bytes: number; files: number } {
  let bytes = 0;
  let files = 0;
  let conversation = 0;
  while (bytes < bytesTarget) {
    const dir = path.join(root, `bench${(conversation++).toString(16).padStart(27, '0')}`, 'events');
    mkdirSync(dir, { recursive: true });
    let id = 0;
    let time = Date.UTC(2026, 0, 1) + conversation * 3_600_000;
    let prompt = 0;
    let completion = 0;
    const write = (event: Record<string, unknown>): void => {
      time += 500 + Math.floor(rng() * 3000);
      const text = JSON.stringify({ id, timestamp: new Date(time).toISOString().replace('Z', ''), ...event });
      writeFileSync(path.join(dir, `${id++}.json`), text);
      bytes += text.length;
      files++;
    };
    const metrics = (): Record<string, unknown> => {
      prompt += 1000 + Math.floor(rng() * 4000);
      completion += 20 + Math.floor(rng() * 300);
      return {
        accumulated_cost: prompt * 3e-6 + completion * 15e-6,
        accumulated_token_usage: {
          model: 'claude-sonnet-4-5',
          prompt_tokens: prompt,
          completion_tokens: completion,
        },
      };
    };
    const turns = 1 + Math.floor(rng() * rng() * 20);
    for (let t = 0; t < turns; t++) {
      write({
        source: 'user',
        message: '',
        action: 'message',
        args: { content: words(rng, 8 + Math.floor(rng() * 40)) },
      });
      const steps = Math.floor(rng() * 4);
      for (let s = 0; s < steps; s++) {
        const action = id;
        const call = {
          function_name: 'execute_bash',
          tool_call_id: `toolu_${conversation}_${id}`,
          total_calls_in_response: 1,
        };
        write({
          source: 'agent',
          message: '',
          action: 'run',
          tool_call_metadata: call,
          llm_metrics: metrics(),
          args: { command: `rg ${words(rng, 1)}`, thought: words(rng, 10 + Math.floor(rng() * 60)) },
        });
        write({
          source: 'agent',
          message: '',
          cause: action,
          observation: 'run',
          tool_call_metadata: call,
          content: words(rng, 50 + Math.floor(rng() * 400)),
          extras: { command: 'rg', metadata: { exit_code: 0 } },
          success: true,
        });
      }
      write({
        source: 'agent',
        message: '',
        action: 'message',
        llm_metrics: metrics(),
        args: { content: words(rng, 20 + Math.floor(rng() * 120)), wait_for_response: true },
      });
      write({
        source: 'environment',
        message: '',
        observation: 'agent_state_changed',
        content: '',
        extras: { agent_state: 'awaiting_user_input', reason: '' },
      });
    }
  }
  return { bytes, files };
}
