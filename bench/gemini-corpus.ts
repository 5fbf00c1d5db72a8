import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { mulberry32, type Rng } from '@strand/workload';
import { hex, uuid, words } from './corpus-text.js';

/**
 * A generated Gemini CLI corpus for `bench:import` (`importMBpsByHarness.gemini`): the
 * `~/.gemini/tmp/<projectHash>/chats/session-<time>-<first 8 of sessionId>.jsonl` layout, records
 * shaped as the JSONL chats Gemini CLI writes (the public ones under `shared/fixtures/real/gemini`):
 * a header, then each message as it grows — a model message written again with its `toolCalls`
 * (results inside, as `functionResponse` parts) once the tools ran — with a `$set` of
 * `lastUpdated` after each. Deterministic (seeded PRNG).
 */
function session(rng: Rng, sessionId: string, projectHash: string, start: number): string {
  let time = start;
  const at = (): string => new Date((time += 300 + Math.floor(rng() * 4000))).toISOString();
  const lines: string[] = [
    JSON.stringify({
      sessionId,
      projectHash,
      startTime: new Date(start).toISOString(),
      lastUpdated: new Date(start).toISOString(),
      kind: 'main',
    }),
  ];
  const write = (record: Record<string, unknown>): void => {
    lines.push(JSON.stringify(record));
    lines.push(JSON.stringify({ $set: { lastUpdated: record['timestamp'] } }));
  };
  const tokens = (): Record<string, number> => {
    const input = 2000 + Math.floor(rng() * 60_000);
    const output = 1 + Math.floor(rng() * 1500);
    const thoughts = Math.floor(rng() * 600);
    return {
      input,
      output,
      cached: Math.floor(input * rng()),
      thoughts,
      tool: 0,
      total: input + output + thoughts,
    };
  };
  const thought = (timestamp: string) => ({
    subject: words(rng, 3),
    description: words(rng, 20 + Math.floor(rng() * 40)),
    timestamp,
  });
  for (let t = 0, turns = 1 + Math.floor(rng() * rng() * 40); t < turns; t++) {
    write({
      id: uuid(rng),
      timestamp: at(),
      type: 'user',
      content: [{ text: words(rng, 8 + Math.floor(rng() * 30)) }],
    });
    for (let r = 0, rounds = Math.floor(rng() * 5); r < rounds; r++) {
      const message = {
        id: uuid(rng),
        timestamp: at(),
        type: 'gemini',
        content: '',
        thoughts: [thought(at())],
        tokens: tokens(),
        model: 'gemini-3-flash-preview',
      };
      write(message);
      const callId = hex(rng, 8);
      const file = `src/${words(rng, 1)}_${t}_${r}.py`;
      const output: string[] = [];
      for (let i = 0, n = 10 + Math.floor(rng() * 300); i < n; i++)
        output.push(`${words(rng, 1)}_${i} = "${words(rng, 6)}"  # ${words(rng, 3)}`);
      write({
        ...message,
        toolCalls: [
          {
            id: callId,
            name: 'read_file',
            args: { file_path: file },
            result: [
              {
                functionResponse: { id: callId, name: 'read_file', response: { output: output.join('\n') } },
              },
            ],
            status: 'success',
            timestamp: at(),
            resultDisplay: '',
            description: file,
            displayName: 'ReadFile',
            renderOutputAsMarkdown: true,
          },
        ],
      });
    }
    write({
      id: uuid(rng),
      timestamp: at(),
      type: 'gemini',
      content: words(rng, 40 + Math.floor(rng() * 120)),
      thoughts: [thought(at())],
      tokens: tokens(),
      model: 'gemini-3-flash-preview',
    });
  }
  return lines.join('\n') + '\n';
}

/** Writes the corpus under `root` (a `tmp` folder); returns its size and transcript count. */
export function generateGeminiCorpus(root: string, bytesTarget: number): { bytes: number; files: number } {
  const rng = mulberry32(20_261_207);
  let bytes = 0;
  let files = 0;
  while (bytes < bytesTarget) {
    const projectHash = hex(rng, 64);
    const chats = path.join(root, projectHash, 'chats');
    mkdirSync(chats, { recursive: true });
    for (let s = 0, n = 2 + Math.floor(rng() * 10); s < n && bytes < bytesTarget; s++) {
      const sessionId = uuid(rng);
      const start = Date.UTC(2026, 0, 1) + Math.floor(rng() * 1e10);
      const stamp = new Date(start).toISOString().slice(0, 16).replace(':', '-');
      const text = session(rng, sessionId, projectHash, start);
      writeFileSync(path.join(chats, `session-${stamp}-${sessionId.slice(0, 8)}.jsonl`), text);
      bytes += Buffer.byteLength(text);
      files++;
    }
  }
  return { bytes, files };
}
