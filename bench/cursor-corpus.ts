import path from 'node:path';
import { createCorpusDb, dbBytesOnDisk } from './sqlite-corpus.js';
import type { Rng } from '@strand/workload';

/**
 * A generated Cursor store for `bench:import` (`importMBpsByHarness.cursor`): one `state.vscdb`
 * (VS Code's key-value tables) whose `cursorDiskKV` holds a `composerData:<id>` per chat and a
 * `bubbleId:<chat>:<bubble>` per message, shaped as `packages/import/src/cursor/fixtures` are:
 * prompts, replies with token counts, tool bubbles with their results. Deterministic for a given `rng`.
 */
export function generateCursorCorpus(
  root: string,
  bytesTarget: number,
  rng: Rng,
  words: (rng: Rng, n: number) => string,
): { bytes: number; files: number; sessions: number } {
  const file = path.join(root, 'state.vscdb');
  const db = createCorpusDb(file);
  db.exec(`
    CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
    CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
  `);
  const put = db.prepare('INSERT INTO cursorDiskKV (key, value) VALUES (?, ?)');
  let time = Date.UTC(2026, 0, 1);
  let bytes = 0;
  let sessions = 0;
  db.transaction(() => {
    while (bytes < bytesTarget) {
      const composerId = `composer-${++sessions}`;
      const createdAt = time;
      const headers: { bubbleId: string; type: number }[] = [];
      const add = (bubble: Record<string, unknown>): void => {
        const bubbleId = `bubble-${sessions}-${headers.length}`;
        const json = JSON.stringify({ _v: 3, bubbleId, createdAt: new Date(time).toISOString(), ...bubble });
        put.run(`bubbleId:${composerId}:${bubbleId}`, json);
        headers.push({ bubbleId, type: bubble.type as number });
        bytes += json.length;
      };
      const turns = 1 + Math.floor(rng() * rng() * 30);
      for (let t = 0; t < turns; t++) {
        time += 10_000;
        add({
          type: 1,
          text: words(rng, 8 + Math.floor(rng() * 40)),
          modelInfo: { modelName: 'claude-4-sonnet' },
          ...(t === 0 ? { workspaceUris: [`file:///home/user/project-${sessions % 40}`] } : {}),
        });
        const steps = 1 + Math.floor(rng() * 4);
        for (let s = 0; s < steps; s++) {
          time += 2_000;
          const text = words(rng, 20 + Math.floor(rng() * 120));
          if (s === steps - 1) {
            add({ type: 2, text, tokenCount: { inputTokens: 1000 + t, outputTokens: 50 } });
            continue;
          }
          const args = JSON.stringify({ command: `rg ${words(rng, 1)}` });
          add({
            type: 2,
            text,
            toolFormerData: {
              tool: 15,
              toolCallId: `toolu_${sessions}_${headers.length}`,
              name: 'run_terminal_cmd',
              rawArgs: args,
              params: args,
              status: 'completed',
              result: JSON.stringify({ output: words(rng, 50 + Math.floor(rng() * 400)) }),
            },
          });
        }
      }
      const composer = JSON.stringify({
        _v: 10,
        composerId,
        name: words(rng, 3),
        createdAt,
        status: 'completed',
        fullConversationHeadersOnly: headers,
        generatingBubbleIds: [],
      });
      put.run(`composerData:${composerId}`, composer);
      bytes += composer.length;
    }
  })();
  db.close();
  return { bytes: dbBytesOnDisk(file), files: 1, sessions };
}
