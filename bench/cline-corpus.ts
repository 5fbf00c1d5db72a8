import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { mulberry32, type Rng } from '@strand/workload';
import { hex, words } from './corpus-text.js';

/**
 * A generated Cline corpus for `bench:import` (`importMBpsByHarness.cline`): VS Code task folders
 * (`tasks/<taskId>/api_conversation_history.json`, `ui_messages.json`, `task_metadata.json`),
 * shaped as the extension writes them (see `packages/import/src/cline/fixtures/synthetic/`): a
 * `<task>` prompt, per tool round an assistant `tool_use` with usage in an `api_req_started` UI
 * message, a `tool_result` with `<environment_details>`, and a final answer. Whole-JSON files, one
 * line each, as Cline saves them. Deterministic (seeded PRNG).
 *
 * `roo`: the same folders as Roo Code keeps them (`importMBpsByHarness.roo`), a `history_item.json`
 * (its `TaskHistoryStore`: title, workspace, totals; see `packages/import/src/roo/fixtures/`) in
 * place of `task_metadata.json`.
 */
export function generateClineCorpus(
  root: string,
  targetBytes: number,
  flavour: 'cline' | 'roo' = 'cline',
): { bytes: number; files: number } {
  const rng = mulberry32(20_261_205);
  let bytes = 0;
  let files = 0;
  let taskTs = 1_764_835_200_000;
  while (bytes < targetBytes) {
    taskTs += 60_000 + Math.floor(rng() * 600_000);
    const dir = path.join(root, 'tasks', String(taskTs));
    mkdirSync(dir, { recursive: true });
    const { api, ui } = task(rng, taskTs);
    const apiText = JSON.stringify(api);
    writeFileSync(path.join(dir, 'api_conversation_history.json'), apiText);
    writeFileSync(path.join(dir, 'ui_messages.json'), JSON.stringify(ui));
    if (flavour === 'roo')
      writeFileSync(
        path.join(dir, 'history_item.json'),
        JSON.stringify({
          id: String(taskTs),
          number: files + 1,
          ts: taskTs,
          task: words(rng, 6),
          tokensIn: Math.floor(rng() * 100_000),
          tokensOut: Math.floor(rng() * 5_000),
          totalCost: Math.floor(rng() * 1000) / 1000,
          workspace: `/home/dev/${words(rng, 1)}`,
          mode: 'code',
          status: 'completed',
        }),
      );
    else
      writeFileSync(
        path.join(dir, 'task_metadata.json'),
        JSON.stringify({
          files_in_context: [],
          model_usage: [
            { ts: taskTs, model_id: 'claude-sonnet-4-5', model_provider_id: 'anthropic', mode: 'act' },
          ],
          environment_history: [],
        }),
      );
    bytes += Buffer.byteLength(apiText);
    files++;
  }
  return { bytes, files };
}

const MODEL = { modelId: 'claude-sonnet-4-5', providerId: 'anthropic', mode: 'act' };

function task(rng: Rng, start: number): { api: unknown[]; ui: unknown[] } {
  let time = start;
  const step = (): number => (time += 500 + Math.floor(rng() * 4000));
  const env = (): { type: string; text: string } => ({
    type: 'text',
    text: `<environment_details>\n# VSCode Visible Files\n${words(rng, 3)}\n</environment_details>`,
  });
  const prompt = words(rng, 30);
  const api: unknown[] = [
    { role: 'user', content: [{ type: 'text', text: `<task>\n${prompt}\n</task>` }, env()], ts: step() },
  ];
  const ui: unknown[] = [{ ts: start, type: 'say', say: 'task', text: prompt }];
  const request = (): void => {
    const fresh = 20 + Math.floor(rng() * 4000);
    ui.push({
      ts: step(),
      type: 'say',
      say: 'api_req_started',
      text: JSON.stringify({
        request: '…',
        tokensIn: fresh,
        tokensOut: 1 + Math.floor(rng() * 400),
        cacheWrites: Math.floor(rng() * 2000),
        cacheReads: Math.floor(rng() * 60000),
        cost: Math.round(rng() * 1e4) / 1e6,
      }),
      modelInfo: MODEL,
    });
  };
  for (let r = 0, rounds = 1 + Math.floor(rng() * 8); r < rounds; r++) {
    request();
    const id = `toolu_${hex(rng, 24)}`;
    api.push({
      role: 'assistant',
      content: [
        { type: 'text', text: words(rng, 20) },
        { type: 'tool_use', id, name: 'read_file', input: { path: `src/${words(rng, 1)}.ts` } },
      ],
      modelInfo: MODEL,
      ts: step(),
    });
    const output = Array.from(
      { length: 20 + Math.floor(rng() * 120) },
      (_, i) => `const v${i} = "${words(rng, 6)}";`,
    );
    api.push({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: id, content: output.join('\n') }, env()],
      ts: step(),
    });
  }
  request();
  api.push({
    role: 'assistant',
    content: [{ type: 'text', text: words(rng, 60) }],
    modelInfo: MODEL,
    ts: step(),
  });
  return { api, ui };
}
