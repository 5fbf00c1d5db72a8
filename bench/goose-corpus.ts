import path from 'node:path';
import { createCorpusDb, dbBytesOnDisk } from './sqlite-corpus.js';
import type { Rng } from '@strand/workload';

/**
 * A generated goose store for `bench:import` (`importMBpsByHarness.goose`): one `sessions.db`
 * (WAL mode, as goose opens it) with goose's schema-13 `sessions` and `messages` tables and rows
 * shaped as goose writes them (`crates/goose/src/session/session_manager.rs`): prompts, replies,
 * `toolRequest`s answered by `toolResponse` user messages. Deterministic for a given `rng`.
 */
export function generateGooseCorpus(
  root: string,
  bytesTarget: number,
  rng: Rng,
  words: (rng: Rng, n: number) => string,
): { bytes: number; files: number; sessions: number } {
  const file = path.join(root, 'sessions.db');
  const db = createCorpusDb(file);
  db.exec(`
    CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP);
    INSERT INTO schema_version (version) VALUES (13);
    CREATE TABLE sessions (id TEXT PRIMARY KEY, name TEXT NOT NULL DEFAULT '', description TEXT NOT NULL DEFAULT '',
      user_set_name BOOLEAN DEFAULT FALSE, session_type TEXT NOT NULL DEFAULT 'user', working_dir TEXT NOT NULL,
      created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP, updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
      extension_data TEXT DEFAULT '{}', total_tokens INTEGER, input_tokens INTEGER, output_tokens INTEGER,
      accumulated_total_tokens INTEGER, accumulated_input_tokens INTEGER, accumulated_output_tokens INTEGER,
      schedule_id TEXT, recipe_json TEXT, user_recipe_values_json TEXT, provider_name TEXT, model_config_json TEXT);
    CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, message_id TEXT, session_id TEXT NOT NULL,
      role TEXT NOT NULL, content_json TEXT NOT NULL, created_timestamp INTEGER NOT NULL,
      timestamp TIMESTAMP DEFAULT CURRENT_TIMESTAMP, tokens INTEGER, metadata_json TEXT);
    CREATE INDEX idx_messages_session ON messages(session_id);
  `);
  const insertSession = db.prepare(
    "INSERT INTO sessions (id, name, working_dir, created_at, provider_name, model_config_json) VALUES (?, ?, ?, ?, 'anthropic', ?)",
  );
  const insertMessage = db.prepare(
    'INSERT INTO messages (message_id, session_id, role, content_json, created_timestamp, metadata_json) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const visible = '{"userVisible":true,"agentVisible":true}';
  const modelConfig = JSON.stringify({ model_name: 'claude-sonnet-4-5', context_limit: 200000 });
  let time = Math.floor(Date.UTC(2026, 0, 1) / 1000);
  let counter = 0;
  let bytes = 0;
  let sessions = 0;
  const add = (sessionId: string, role: string, content: unknown[]): void => {
    const json = JSON.stringify(content);
    insertMessage.run(`msg_${sessionId}_${counter++}`, sessionId, role, json, time, visible);
    bytes += json.length + visible.length;
  };
  db.transaction(() => {
    while (bytes < bytesTarget) {
      const sessionId = `20260101_${++sessions}`;
      insertSession.run(
        sessionId,
        words(rng, 3),
        `/home/user/project-${sessions % 40}`,
        '2026-01-01 00:00:00',
        modelConfig,
      );
      const turns = 1 + Math.floor(rng() * rng() * 30);
      for (let t = 0; t < turns; t++) {
        time += 10;
        add(sessionId, 'user', [{ type: 'text', text: words(rng, 8 + Math.floor(rng() * 40)) }]);
        const steps = 1 + Math.floor(rng() * 4);
        for (let s = 0; s < steps; s++) {
          time += 2;
          const text = { type: 'text', text: words(rng, 20 + Math.floor(rng() * 120)) };
          if (s === steps - 1) {
            add(sessionId, 'assistant', [text]);
            continue;
          }
          const callId = `toolu_${counter}`;
          add(sessionId, 'assistant', [
            text,
            {
              type: 'toolRequest',
              id: callId,
              toolCall: {
                status: 'success',
                value: { name: 'developer__shell', arguments: { command: `rg ${words(rng, 1)}` } },
              },
            },
          ]);
          add(sessionId, 'user', [
            {
              type: 'toolResponse',
              id: callId,
              toolResult: {
                status: 'success',
                value: {
                  content: [{ type: 'text', text: words(rng, 50 + Math.floor(rng() * 400)) }],
                  isError: false,
                },
              },
            },
          ]);
        }
      }
    }
  })();
  db.close();
  return { bytes: dbBytesOnDisk(file), files: 1, sessions };
}
