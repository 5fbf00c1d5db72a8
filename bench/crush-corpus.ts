import path from 'node:path';
import { createCorpusDb, dbBytesOnDisk } from './sqlite-corpus.js';
import type { Rng } from '@strand/workload';

const PROJECTS = 8;

/**
 * A generated crush corpus for `bench:import`: a tree of projects, each with its
 * `.crush/crush.db` (WAL mode, as crush opens it), with the `sessions` and `messages` tables of
 * crush's migrations and rows shaped as it writes them (`parts` as `[{type, data}]`, times in
 * seconds) — prompts, replies per step, tool calls with a `tool` row per result, a quarter of the
 * sessions with an `agent` child session. Deterministic for a given `rng`.
 */
export function generateCrushCorpus(
  root: string,
  bytesTarget: number,
  rng: Rng,
  words: (rng: Rng, n: number) => string,
): { bytes: number; files: number; sessions: number } {
  let counter = 0;
  let time = Math.floor(Date.UTC(2026, 0, 1) / 1000);
  const id = (): string => `${(counter++).toString(16).padStart(8, '0')}-bench-4000-8000-000000000000`;
  let bytes = 0;
  let sessions = 0;
  let onDisk = 0;
  const part = (type: string, data: Record<string, unknown>) => ({ type, data });
  for (let p = 0; p < PROJECTS; p++) {
    const file = path.join(root, `project-${p}`, '.crush', 'crush.db');
    const db = createCorpusDb(file);
    db.exec(`
      CREATE TABLE sessions (id TEXT PRIMARY KEY, parent_session_id TEXT, title TEXT NOT NULL,
        message_count INTEGER NOT NULL DEFAULT 0, prompt_tokens INTEGER NOT NULL DEFAULT 0,
        completion_tokens INTEGER NOT NULL DEFAULT 0, cost REAL NOT NULL DEFAULT 0.0,
        updated_at INTEGER NOT NULL, created_at INTEGER NOT NULL, summary_message_id TEXT, todos TEXT);
      CREATE TABLE messages (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, role TEXT NOT NULL,
        parts TEXT NOT NULL default '[]', model TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,
        finished_at INTEGER, provider TEXT, is_summary_message INTEGER DEFAULT 0 NOT NULL);
    `);
    const insertSession = db.prepare(
      'INSERT INTO sessions (id, parent_session_id, title, updated_at, created_at) VALUES (?, ?, ?, ?, ?)',
    );
    const insertMessage = db.prepare(
      'INSERT INTO messages (id, session_id, role, parts, model, created_at, updated_at, finished_at, provider) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const message = (sessionId: string, role: string, parts: unknown[], finished: boolean): string => {
      const messageId = id();
      const text = JSON.stringify(parts);
      const assistant = role === 'assistant';
      insertMessage.run(
        messageId,
        sessionId,
        role,
        text,
        assistant ? 'claude-sonnet-4-5' : '',
        time,
        time,
        assistant && finished ? time + 2 : null,
        assistant ? 'anthropic' : null,
      );
      bytes += text.length;
      return messageId;
    };
    const writeSession = (sessionId: string, parent: string | null): void => {
      insertSession.run(sessionId, parent, parent === null ? words(rng, 5) : 'New Agent Session', time, time);
      sessions++;
      const turns = 1 + Math.floor(rng() * rng() * 30);
      for (let t = 0; t < turns; t++) {
        time += 1;
        const stop = part('finish', { reason: 'stop', time: 0 });
        message(
          sessionId,
          'user',
          [part('text', { text: words(rng, 8 + Math.floor(rng() * 40)) }), stop],
          true,
        );
        const steps = 1 + Math.floor(rng() * 4);
        for (let s = 0; s < steps; s++) {
          time += 2;
          const last = s === steps - 1;
          const callId = `toolu_${counter}`;
          const parts: unknown[] = [part('text', { text: words(rng, 20 + Math.floor(rng() * 120)) })];
          if (!last)
            parts.push(
              part('tool_call', {
                id: callId,
                name: 'bash',
                input: JSON.stringify({ command: `grep -rn ${words(rng, 1)} src` }),
                provider_executed: false,
                finished: true,
              }),
            );
          parts.push(part('finish', { reason: last ? 'end_turn' : 'tool_use', time: time + 2 }));
          message(sessionId, 'assistant', parts, true);
          if (!last)
            message(
              sessionId,
              'tool',
              [
                part('tool_result', {
                  tool_call_id: callId,
                  name: 'bash',
                  content: words(rng, 50 + Math.floor(rng() * 400)),
                  data: '',
                  mime_type: '',
                  metadata: '',
                  is_error: false,
                }),
                stop,
              ],
              true,
            );
        }
      }
    };
    db.transaction(() => {
      // Each project takes its share of the corpus.
      while (bytes < (bytesTarget * (p + 1)) / PROJECTS) {
        const parent = id();
        writeSession(parent, null);
        if (rng() < 0.25) writeSession(`${id()}$$toolu_agent_${counter}`, parent);
      }
    })();
    db.close();
    onDisk += dbBytesOnDisk(file);
  }
  return { bytes: onDisk, files: PROJECTS, sessions };
}
