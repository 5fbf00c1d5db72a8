import path from 'node:path';
import { createCorpusDb, dbBytesOnDisk } from './sqlite-corpus.js';
import type { Rng } from '@strand/workload';

/**
 * A generated opencode store for `bench:import`: one `opencode.db` (WAL mode, as opencode opens
 * it) with the `session`, `message` and `part` tables of opencode 1.18 and rows shaped as it
 * writes them — prompts, replies with usage, tool calls with their output, a quarter of the
 * sessions with a `task` child session. Deterministic for a given `rng`. `store` names the
 * database and the version written: Kilo Code's CLI keeps the same store as `kilo.db`.
 */
export function generateOpencodeCorpus(
  root: string,
  bytesTarget: number,
  rng: Rng,
  words: (rng: Rng, n: number) => string,
  store: { readonly file: string; readonly version: string } = { file: 'opencode.db', version: '1.18.33' },
): { bytes: number; files: number; sessions: number } {
  const file = path.join(root, store.file);
  const db = createCorpusDb(file);
  db.exec(`
    CREATE TABLE session (id text PRIMARY KEY, project_id text NOT NULL, workspace_id text, parent_id text,
      slug text NOT NULL, directory text NOT NULL, path text, title text NOT NULL, version text NOT NULL,
      time_created integer NOT NULL, time_updated integer NOT NULL);
    CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL, time_created integer NOT NULL,
      time_updated integer NOT NULL, data text NOT NULL);
    CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL,
      time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
  `);
  const insertSession = db.prepare(
    "INSERT INTO session VALUES (?, 'global', NULL, ?, 'bench', ?, NULL, ?, ?, ?, ?)",
  );
  const insertMessage = db.prepare('INSERT INTO message VALUES (?, ?, ?, ?, ?)');
  const insertPart = db.prepare('INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)');
  let counter = 0;
  let time = Date.UTC(2026, 0, 1);
  // opencode's ids ascend in creation order; a counter in the id keeps that.
  const id = (prefix: string): string => `${prefix}_${(counter++).toString(16).padStart(12, '0')}bench`;
  let bytes = 0;
  let sessions = 0;
  const usage = (): Record<string, unknown> => ({
    total: 2000,
    input: 100 + Math.floor(rng() * 2000),
    output: 10 + Math.floor(rng() * 500),
    reasoning: 0,
    cache: { read: Math.floor(rng() * 50_000), write: 0 },
  });
  const writeSession = (parent: string | null, cwd: string): string => {
    const sessionId = id('ses');
    insertSession.run(sessionId, parent, cwd, words(rng, 5), store.version, time, time);
    sessions++;
    const turns = 1 + Math.floor(rng() * rng() * 30);
    for (let t = 0; t < turns; t++) {
      const user = id('msg');
      time += 1000;
      const userData = JSON.stringify({ role: 'user', time: { created: time }, agent: 'build' });
      insertMessage.run(user, sessionId, time, time, userData);
      const prompt = JSON.stringify({ type: 'text', text: words(rng, 8 + Math.floor(rng() * 40)) });
      insertPart.run(id('prt'), user, sessionId, time, time, prompt);
      bytes += userData.length + prompt.length;
      const steps = 1 + Math.floor(rng() * 4);
      for (let s = 0; s < steps; s++) {
        const reply = id('msg');
        time += 2000;
        const last = s === steps - 1;
        const data = JSON.stringify({
          parentID: user,
          role: 'assistant',
          mode: 'build',
          agent: 'build',
          path: { cwd, root: '/' },
          cost: 0,
          tokens: usage(),
          modelID: 'claude-sonnet-4-5',
          providerID: 'anthropic',
          time: { created: time, completed: time + 1500 },
          finish: last ? 'stop' : 'tool-calls',
        });
        insertMessage.run(reply, sessionId, time, time + 1500, data);
        bytes += data.length;
        const parts = [
          { type: 'step-start' },
          { type: 'text', text: words(rng, 20 + Math.floor(rng() * 120)), time: { start: time, end: time } },
        ];
        if (!last)
          parts.push({
            type: 'tool',
            callID: `call_${counter}`,
            tool: 'bash',
            state: {
              status: 'completed',
              input: { command: `grep -rn ${words(rng, 1)} src`, description: words(rng, 4) },
              output: words(rng, 50 + Math.floor(rng() * 400)),
              title: 'bash',
              metadata: {},
              time: { start: time, end: time + 500 },
            },
          } as never);
        parts.push({ type: 'step-finish', reason: last ? 'stop' : 'tool-calls', tokens: usage() } as never);
        for (const part of parts) {
          const text = JSON.stringify(part);
          insertPart.run(id('prt'), reply, sessionId, time, time, text);
          bytes += text.length;
        }
      }
    }
    return sessionId;
  };
  db.transaction(() => {
    let project = 0;
    while (bytes < bytesTarget) {
      const cwd = `/home/user/project-${project++ % 40}`;
      const parent = writeSession(null, cwd);
      if (rng() < 0.25) writeSession(parent, cwd);
    }
  })();
  db.close();
  return { bytes: dbBytesOnDisk(file), files: 1, sessions };
}
