import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { mulberry32, type Rng } from '@strand/workload';
import { hex, uuid, words } from './corpus-text.js';

/**
 * A generated Qwen Code corpus for `bench:import` (`importMBpsByHarness.qwen`): the
 * `~/.qwen/projects` layout, `<project>/chats/<sessionId>.jsonl`, about a quarter of the sessions
 * with subagents (`subagents/<sessionId>/agent-<id>.jsonl` and `.meta.json`), records shaped as
 * Qwen Code 0.24.4 writes them (see `packages/import/src/qwen/fixtures/bed/`): a prompt, per tool
 * round a `ui_telemetry` record, the model's text and call with `usageMetadata`, the tool result
 * (output and the display object it repeats), and a final answer. Deterministic (seeded PRNG).
 */

interface Writer {
  readonly lines: string[];
  time: number;
  parent: string | null;
}

function turn(rng: Rng, w: Writer, base: Record<string, unknown>, prompt: string, agent: boolean): void {
  const step = (): string => new Date((w.time += 500 + Math.floor(rng() * 4000))).toISOString();
  const push = (record: Record<string, unknown>): void => {
    const id = uuid(rng);
    w.lines.push(JSON.stringify({ uuid: id, parentUuid: w.parent, ...base, timestamp: step(), ...record }));
    w.parent = id;
  };
  const usage = (): Record<string, number> => {
    const prompt = 2000 + Math.floor(rng() * 60000);
    const out = 1 + Math.floor(rng() * 400);
    return {
      promptTokenCount: prompt,
      candidatesTokenCount: out,
      thoughtsTokenCount: 0,
      totalTokenCount: prompt + out,
      cachedContentTokenCount: Math.floor(prompt * rng()),
    };
  };
  push({ type: 'user', provenance: 'real_user', message: { role: 'user', parts: [{ text: prompt }] } });
  const rounds = 1 + Math.floor(rng() * 6);
  for (let r = 0; r < rounds; r++) {
    const callId = `call_${hex(rng, 24)}`;
    const file = `/home/user/src/${words(rng, 1)}.ts`;
    if (!agent)
      push({
        type: 'system',
        subtype: 'ui_telemetry',
        provenance: 'system',
        systemPayload: {
          uiEvent: {
            'event.name': 'qwen-code.api_response',
            model: 'qwen3-coder-plus',
            status_code: 200,
            duration_ms: Math.floor(rng() * 5000),
            auth_type: 'openai',
          },
        },
      });
    push({
      type: 'assistant',
      provenance: 'assistant_output',
      model: 'qwen3-coder-plus',
      message: {
        role: 'model',
        parts: [
          { text: words(rng, 20 + Math.floor(rng() * 60)) },
          { functionCall: { id: callId, name: 'read_file', args: { absolute_path: file } } },
        ],
      },
      usageMetadata: usage(),
      contextWindowSize: 1_000_000,
    });
    const lines: string[] = [];
    for (let i = 0, n = 20 + Math.floor(rng() * 400); i < n; i++)
      lines.push(`const ${words(rng, 1)}_${i} = "${words(rng, 6)}"; // ${words(rng, 4)}`);
    const content = lines.join('\n');
    push({
      type: 'tool_result',
      provenance: 'tool_result',
      message: {
        role: 'user',
        parts: [{ functionResponse: { id: callId, name: 'read_file', response: { output: content } } }],
      },
      toolCallResult: { callId, status: 'success', resultDisplay: '', executionStatus: 'success' },
    });
  }
  push({
    type: 'assistant',
    provenance: 'assistant_output',
    model: 'qwen3-coder-plus',
    message: { role: 'model', parts: [{ text: words(rng, 80) }] },
    usageMetadata: usage(),
    contextWindowSize: 1_000_000,
  });
}

/** Writes the corpus under `root` (a `projects` folder); returns its size and transcript count. */
export function generateQwenCorpus(root: string, bytesTarget: number): { bytes: number; files: number } {
  const rng = mulberry32(20_261_204);
  let bytes = 0;
  let files = 0;
  let project = 0;
  while (bytes < bytesTarget) {
    const dir = path.join(root, `-home-user-project-${project++}`);
    mkdirSync(path.join(dir, 'chats'), { recursive: true });
    const sessionsInProject = 3 + Math.floor(rng() * 10);
    for (let s = 0; s < sessionsInProject && bytes < bytesTarget; s++) {
      const sessionId = uuid(rng);
      const base = { sessionId, cwd: `/home/user/project-${project}`, version: '0.24.4', gitBranch: 'main' };
      const w: Writer = { lines: [], time: Date.UTC(2026, 0, 1) + Math.floor(rng() * 1e10), parent: null };
      // Session sizes vary from a few KB to several MB, like real history.
      const turns = 1 + Math.floor(rng() * rng() * 60);
      for (let t = 0; t < turns; t++) turn(rng, w, base, words(rng, 8 + Math.floor(rng() * 30)), false);
      if (rng() < 0.3)
        w.lines.push(
          JSON.stringify({
            uuid: uuid(rng),
            parentUuid: w.parent,
            ...base,
            timestamp: new Date(w.time).toISOString(),
            type: 'system',
            subtype: 'custom_title',
            systemPayload: { customTitle: words(rng, 5), titleSource: 'auto' },
          }),
        );
      const text = w.lines.join('\n') + '\n';
      writeFileSync(path.join(dir, 'chats', `${sessionId}.jsonl`), text);
      bytes += Buffer.byteLength(text);
      files++;
      const agents = rng() < 0.25 ? 1 + Math.floor(rng() * 3) : 0;
      for (let a = 0; a < agents; a++) {
        const agentId = `general-purpose-call_${hex(rng, 16)}`;
        const sub = path.join(dir, 'subagents', sessionId);
        mkdirSync(sub, { recursive: true });
        const aw: Writer = { lines: [], time: w.time, parent: null };
        const agentBase = { ...base, agentId, agentName: 'general-purpose', isSidechain: true };
        for (let t = 0, n = 1 + Math.floor(rng() * 3); t < n; t++)
          turn(rng, aw, agentBase, words(rng, 40), true);
        const agentText = aw.lines.join('\n') + '\n';
        writeFileSync(path.join(sub, `agent-${agentId}.jsonl`), agentText);
        writeFileSync(
          path.join(sub, `agent-${agentId}.meta.json`),
          JSON.stringify({
            agentId,
            agentType: 'general-purpose',
            description: words(rng, 4),
            parentSessionId: sessionId,
          }),
        );
        bytes += Buffer.byteLength(agentText);
        files++;
      }
    }
  }
  return { bytes, files };
}
