import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { mulberry32, type Rng } from '@strand/workload';

/**
 * A generated pi corpus for `bench:import`: `--<cwd>--/<ts>_<uuid>.jsonl` session files as pi
 * 0.73 writes them (docs/transcript-formats.md, "pi"): a header, `model_change` and
 * `thinking_level_change`, then turns of a prompt, tool rounds (an assistant `toolCall` with
 * usage, a `toolResult` holding a file's text) and a final answer; now and then a `session_info`
 * name, a compaction, and a branch back to an earlier answer. Deterministic (seeded PRNG).
 */
const WORDS =
  'the a session turn model tool file read write project test build error fix change import module function value type check result output input stream line event log store index query cache branch leaf tree'.split(
    ' ',
  );

const words = (rng: Rng, n: number): string =>
  Array.from({ length: n }, () => WORDS[Math.floor(rng() * WORDS.length)]!).join(' ');

function hex(rng: Rng, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += Math.floor(rng() * 16).toString(16);
  return s;
}

const ZERO_COST = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 };

/** Writes the corpus under `root`; returns its size in bytes and the number of session files. */
export function generatePiCorpus(root: string, bytesTarget: number): { bytes: number; files: number } {
  const rng = mulberry32(20_260_502);
  let bytes = 0;
  let files = 0;
  let project = 0;
  while (bytes < bytesTarget) {
    const cwd = `/home/user/project-${project++}`;
    const dir = path.join(root, `--${cwd.slice(1).replace(/\//g, '-')}--`);
    mkdirSync(dir, { recursive: true });
    const sessions = 3 + Math.floor(rng() * 10);
    for (let s = 0; s < sessions && bytes < bytesTarget; s++) {
      const id = `019a${hex(rng, 4)}-${hex(rng, 4)}-7${hex(rng, 3)}-8${hex(rng, 3)}-${hex(rng, 12)}`;
      let time = Date.UTC(2026, 0, 1) + Math.floor(rng() * 1e10);
      const created = new Date(time).toISOString();
      const lines = [JSON.stringify({ type: 'session', version: 3, id, timestamp: created, cwd })];
      let parent: string | null = null;
      const answers: string[] = [];
      const push = (entry: Record<string, unknown>): string => {
        const entryId = hex(rng, 8);
        time += 300 + Math.floor(rng() * 4000);
        lines.push(
          JSON.stringify({
            ...entry,
            id: entryId,
            parentId: parent,
            timestamp: new Date(time).toISOString(),
          }),
        );
        parent = entryId;
        return entryId;
      };
      const message = (m: Record<string, unknown>): string =>
        push({ type: 'message', message: { ...m, timestamp: time } });
      const assistant = (content: unknown[], stopReason: string): string =>
        message({
          role: 'assistant',
          content,
          api: 'anthropic-messages',
          provider: 'anthropic',
          model: 'claude-sonnet-4-5',
          usage: {
            input: 3 + Math.floor(rng() * 200),
            output: 1 + Math.floor(rng() * 400),
            cacheRead: Math.floor(rng() * 40_000),
            cacheWrite: Math.floor(rng() * 2000),
            totalTokens: 0,
            cost: ZERO_COST,
          },
          stopReason,
        });
      push({ type: 'model_change', provider: 'anthropic', modelId: 'claude-sonnet-4-5' });
      push({ type: 'thinking_level_change', thinkingLevel: 'off' });
      // Session sizes vary from a few KB to several MB, like real history.
      const turns = 1 + Math.floor(rng() * rng() * 60);
      for (let t = 0; t < turns; t++) {
        // Now and then `/tree` goes back to an earlier answer and the session goes on from there.
        if (answers.length > 2 && rng() < 0.05) {
          parent = answers[Math.floor(rng() * answers.length)]!;
          push({ type: 'branch_summary', fromId: parent, summary: words(rng, 30) });
        }
        message({ role: 'user', content: [{ type: 'text', text: words(rng, 8 + Math.floor(rng() * 30)) }] });
        const rounds = 1 + Math.floor(rng() * 6);
        for (let r = 0; r < rounds; r++) {
          const callId = `toolu_${hex(rng, 24)}`;
          assistant(
            [
              { type: 'text', text: words(rng, 20 + Math.floor(rng() * 60)) },
              { type: 'toolCall', id: callId, name: 'read', arguments: { path: `src/${words(rng, 1)}.ts` } },
            ],
            'toolUse',
          );
          const file = Array.from(
            { length: 20 + Math.floor(rng() * 400) },
            (_, i) => `const ${words(rng, 1)}_${i} = "${words(rng, 6)}"; // ${words(rng, 4)}`,
          ).join('\n');
          message({
            role: 'toolResult',
            toolCallId: callId,
            toolName: 'read',
            content: [{ type: 'text', text: file }],
            isError: false,
          });
        }
        answers.push(assistant([{ type: 'text', text: words(rng, 80) }], 'stop'));
        if (rng() < 0.03)
          push({
            type: 'compaction',
            summary: words(rng, 200),
            firstKeptEntryId: parent,
            tokensBefore: 150_000,
          });
      }
      if (rng() < 0.3) push({ type: 'session_info', name: words(rng, 5) });
      const text = lines.join('\n') + '\n';
      writeFileSync(path.join(dir, `${created.replace(/[:.]/g, '-')}_${id}.jsonl`), text);
      bytes += Buffer.byteLength(text);
      files++;
    }
  }
  return { bytes, files };
}
