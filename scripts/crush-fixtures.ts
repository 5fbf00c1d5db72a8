/**
 * `npx tsx scripts/crush-fixtures.ts`: writes the synthetic crush fixtures
 * (`packages/import/src/crush/fixtures/<scenario>.json`, then run prettier on the folder). crush
 * cannot run here (its npm package downloads the binary at install time), so each database is
 * built by hand after crush's source: the schema from its migrations, the rows as `marshalParts`,
 * `CreateMessage`/`UpdateMessage` and the agent loop write them (`fixtures/SOURCES.md` cites each).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';

type Row = Record<string, unknown>;
interface Part {
  type: string;
  data: Row;
}
const OUT = path.resolve('packages/import/src/crush/fixtures');
const base = [
  `CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    parent_session_id TEXT,
    title TEXT NOT NULL,
    message_count INTEGER NOT NULL DEFAULT 0 CHECK (message_count >= 0),
    prompt_tokens  INTEGER NOT NULL DEFAULT 0 CHECK (prompt_tokens >= 0),
    completion_tokens  INTEGER NOT NULL DEFAULT 0 CHECK (completion_tokens>= 0),
    cost REAL NOT NULL DEFAULT 0.0 CHECK (cost >= 0.0),
    updated_at INTEGER NOT NULL,  -- Unix timestamp in milliseconds
    created_at INTEGER NOT NULL   -- Unix timestamp in milliseconds
)`,
  `CREATE TABLE IF NOT EXISTS messages (
    id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    role TEXT NOT NULL,
    parts TEXT NOT NULL default '[]',
    model TEXT,
    created_at INTEGER NOT NULL,  -- Unix timestamp in milliseconds
    updated_at INTEGER NOT NULL,  -- Unix timestamp in milliseconds
    finished_at INTEGER,  -- Unix timestamp in milliseconds
    FOREIGN KEY (session_id) REFERENCES sessions (id) ON DELETE CASCADE
)`,
  `CREATE INDEX IF NOT EXISTS idx_messages_session_id ON messages (session_id)`,
  `CREATE TRIGGER IF NOT EXISTS update_session_message_count_on_insert
AFTER INSERT ON messages
BEGIN
UPDATE sessions SET
    message_count = message_count + 1
WHERE id = new.session_id;
END`,
];
const crushSchema = [
  ...base,
  'ALTER TABLE sessions ADD COLUMN summary_message_id TEXT',
  'ALTER TABLE messages ADD COLUMN provider TEXT',
  'ALTER TABLE messages ADD COLUMN is_summary_message INTEGER DEFAULT 0 NOT NULL',
  'ALTER TABLE sessions ADD COLUMN todos TEXT',
];
let n = 0;
// Ids unique across the fixtures, readable by scenario (crush's are random UUIDs: order is by time, then rowid).
const uuid = (k: string): string => `${k.padEnd(8, '0')}-0000-4000-8000-${String(++n).padStart(12, '0')}`;
const T0 = 1764850000;
function scenario(name: string, { opencodeGo = false } = {}) {
  let t = T0;
  const sessions: Row[] = [];
  const messages: Row[] = [];
  const s = {
    session(id: string, title: string, parent: string | null = null) {
      sessions.push({
        id,
        parent_session_id: parent,
        title,
        message_count: 0,
        prompt_tokens: 0,
        completion_tokens: 0,
        cost: 0,
        updated_at: t,
        created_at: t,
        ...(opencodeGo ? {} : { summary_message_id: null, todos: null }),
      });
      return id;
    },
    msg(
      session: string,
      role: string,
      parts: Part[],
      { summary = false, model = 'bed-model', tick = 1 } = {},
    ): string {
      t += tick;
      const id = uuid(name.slice(0, 8).replace(/[^a-z]/g, 'a'));
      const full: Part[] =
        role === 'assistant' ? parts : [...parts, { type: 'finish', data: { reason: 'stop', time: 0 } }];
      const fin = full.find((p) => p.type === 'finish');
      if (fin && role === 'assistant') fin.data.time = t;
      const row: Row = {
        id,
        session_id: session,
        role,
        parts: JSON.stringify(full),
        model: role === 'user' || role === 'tool' ? '' : model,
        created_at: t,
        updated_at: t,
        finished_at: fin ? t : null,
      };
      if (role !== 'assistant') row.finished_at = null; // `CreateMessage` sets no finished_at
      if (!opencodeGo) {
        row.provider = role === 'assistant' ? 'bed' : null;
        row.is_summary_message = summary ? 1 : 0;
      }
      messages.push(row);
      return id;
    },
    done() {
      const dump = {
        harness: 'crush',
        version: opencodeGo
          ? 'synthetic (opencode-go schema: no provider, no is_summary_message)'
          : 'synthetic (crush 0.96 source)',
        scenario: name,
        file: opencodeGo ? '.opencode/opencode.db' : '.crush/crush.db',
        schema: opencodeGo ? base : crushSchema,
        rows: { sessions, messages },
      };
      writeFileSync(path.join(OUT, `${name}.json`), JSON.stringify(dump, null, 1) + '\n');
    },
  };
  return s;
}
const text = (t: string): Part => ({ type: 'text', data: { text: t } });
const fin = (reason: string, extra: Row = {}): Part => ({
  type: 'finish',
  data: { reason, time: 0, ...extra },
});
const call = (id: string, name: string, input: Row): Part => ({
  type: 'tool_call',
  data: { id, name, input: JSON.stringify(input), provider_executed: false, finished: true },
});
const result = (id: string, name: string, content: string, is_error = false): Part => ({
  type: 'tool_result',
  data: { tool_call_id: id, name, content, data: '', mime_type: '', metadata: '', is_error },
});
const reasoning = (t: string): Part => ({
  type: 'reasoning',
  data: {
    thinking: t,
    signature: '',
    thought_signature: '',
    tool_id: '',
    responses_data: null,
    started_at: T0,
    finished_at: T0 + 1,
  },
});

{
  const s = scenario('multi-turn');
  const id = s.session('5d1c2f0e-0000-4000-8000-000000000001', 'Bed conversation');
  s.msg(id, 'user', [text('Please say hello.')]);
  s.msg(id, 'assistant', [
    reasoning('The person wants a greeting.'),
    text('Hello! How can I help?'),
    fin('end_turn'),
  ]);
  s.msg(id, 'user', [text('Now say goodbye.')]);
  s.msg(id, 'assistant', [text('Goodbye!'), fin('end_turn')]);
  s.done();
}

{
  const s = scenario('tool-calls');
  const id = s.session('5d1c2f0e-0000-4000-8000-000000000002', 'Reading notes');
  s.msg(id, 'user', [text('Read notes.txt and list the folder.')]);
  s.msg(id, 'assistant', [
    text('Reading the file.'),
    call('call_view_1', 'view', { file_path: 'notes.txt' }),
    call('call_ls_1', 'ls', { path: 'missing' }),
    fin('tool_use'),
  ]);
  s.msg(id, 'tool', [result('call_view_1', 'view', '<file>\n     1|remember the milk\n</file>')]);
  s.msg(id, 'tool', [result('call_ls_1', 'ls', 'path does not exist: missing', true)]);
  s.msg(id, 'assistant', [text('notes.txt says: remember the milk.'), fin('end_turn')]);
  s.done();
}

{
  const s = scenario('resume');
  const id = s.session('5d1c2f0e-0000-4000-8000-000000000003', 'Counting');
  s.msg(id, 'user', [text('Remember the number 7.')]);
  s.msg(id, 'assistant', [text('Noted: 7.'), fin('end_turn')]);
  s.msg(id, 'user', [text('What number did I give you?')], { tick: 600 });
  s.msg(id, 'assistant', [text('You gave me 7.'), fin('end_turn')]);
  s.done();
}

{
  const s = scenario('subagent');
  const id = s.session('5d1c2f0e-0000-4000-8000-000000000004', 'Delegating a search');
  s.msg(id, 'user', [text('Find where the greeting is defined, using an agent.')]);
  const m = s.msg(id, 'assistant', [
    call('call_agent_1', 'agent', { prompt: 'Search the workspace for the greeting definition.' }),
    fin('tool_use'),
  ]);
  const child = s.session(`${m}$$call_agent_1`, 'New Agent Session', id);
  s.msg(child, 'user', [text('Search the workspace for the greeting definition.')]);
  s.msg(child, 'assistant', [call('call_grep_1', 'grep', { pattern: 'greet' }), fin('tool_use')]);
  s.msg(child, 'tool', [
    result('call_grep_1', 'grep', 'Found 1 matches\ngreet.ts:\n  Line 1: export const greet = () => "hi";'),
  ]);
  s.msg(child, 'assistant', [text('It is in greet.ts, line 1.'), fin('end_turn')]);
  s.msg(id, 'tool', [result('call_agent_1', 'agent', 'It is in greet.ts, line 1.')]);
  s.msg(id, 'assistant', [text('The greeting is defined in greet.ts.'), fin('end_turn')]);
  s.done();
}

{
  const s = scenario('compaction');
  const id = s.session('5d1c2f0e-0000-4000-8000-000000000005', 'A long talk');
  s.msg(id, 'user', [text('Tell me about tides.')]);
  s.msg(id, 'assistant', [text('Tides come from the moon.'), fin('end_turn')]);
  s.msg(
    id,
    'assistant',
    [text('Summary: the person asked about tides; the moon causes them.'), fin('end_turn')],
    { summary: true },
  );
  s.msg(id, 'user', [text('And the sun?')]);
  s.msg(id, 'assistant', [text('The sun adds a smaller pull.'), fin('end_turn')]);
  s.done();
}

{
  const s = scenario('interrupt');
  const id = s.session('5d1c2f0e-0000-4000-8000-000000000006', 'Stopped twice');
  s.msg(id, 'user', [text('Write a long poem.')]);
  // A reply whose run was killed mid-stream: never finished; the next prompt shows it is over.
  s.msg(id, 'assistant', [text('Roses are')]);
  s.msg(id, 'user', [text('Try again, shorter.')]);
  s.msg(id, 'assistant', [text('Roses are red.'), fin('canceled', { message: 'User canceled request' })]);
  s.msg(id, 'user', [text('And now fail.')]);
  s.msg(id, 'assistant', [fin('error', { message: 'Provider error', details: 'upstream returned 500' })]);
  s.done();
}

{
  const s = scenario('image');
  const id = s.session('5d1c2f0e-0000-4000-8000-000000000007', 'Describing a picture');
  const png =
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
  s.msg(id, 'user', [
    text('What is in this picture? See also notes.md.'),
    { type: 'binary', data: { Path: 'dot.png', MIMEType: 'image/png', Data: png } },
    {
      type: 'binary',
      data: {
        Path: 'notes.md',
        MIMEType: 'text/markdown',
        Data: Buffer.from('# notes\n').toString('base64'),
      },
    },
  ]);
  s.msg(id, 'assistant', [text('A single pixel.'), fin('end_turn')]);
  s.msg(id, 'user', [
    { type: 'shell_command', data: { command: 'ls', output: 'dot.png\nnotes.md\n', exit_code: 0 } },
  ]);
  s.msg(id, 'assistant', [text('Two files.'), fin('end_turn')]);
  s.msg(id, 'user', [text('Open dot.png yourself.')]);
  s.msg(id, 'assistant', [call('call_view_png', 'view', { file_path: 'dot.png' }), fin('tool_use')]);
  // The `view` tool on a picture: crush's `convertToToolResult` keeps the media in `data`.
  s.msg(id, 'tool', [
    {
      type: 'tool_result',
      data: {
        tool_call_id: 'call_view_png',
        name: 'view',
        content: 'Loaded image/png content',
        data: png,
        mime_type: 'image/png',
        metadata: '',
        is_error: false,
      },
    },
  ]);
  s.msg(id, 'assistant', [text('Still a single pixel.'), fin('end_turn')]);
  s.done();
}

{
  const s = scenario('opencode-go', { opencodeGo: true });
  const id = s.session('5d1c2f0e-0000-4000-8000-000000000008', 'Untitled Session');
  s.msg(id, 'user', [text('Hello from opencode-go.')]);
  s.msg(id, 'assistant', [text('Hi!'), fin('end_turn')], { model: 'claude-3.7-sonnet' });
  s.msg(id, 'user', [text('Look at both files.')]);
  s.msg(
    id,
    'assistant',
    [
      call('toolu_a', 'view', { file_path: 'a.go' }),
      call('toolu_b', 'view', { file_path: 'b.go' }),
      fin('tool_use'),
    ],
    { model: 'claude-3.7-sonnet' },
  );
  // opencode-go wrote every result of a step into one `tool` message.
  s.msg(id, 'tool', [result('toolu_a', 'view', 'package a'), result('toolu_b', 'view', 'package b')]);
  s.msg(id, 'assistant', [text('Both are tiny packages.'), fin('end_turn')], { model: 'claude-3.7-sonnet' });
  s.done();
}

{
  const s = scenario('auto-compaction');
  const id = s.session('5d1c2f0e-0000-4000-8000-000000000009', 'Refactoring the parser');
  s.msg(id, 'user', [text('Refactor the parser.')]);
  // The step's tokens crossed the context threshold (`StopWhen`): the run stops after this step.
  s.msg(id, 'assistant', [
    text('Reading it first.'),
    call('call_view_9', 'view', { file_path: 'parser.go' }),
    fin('tool_use'),
  ]);
  s.msg(id, 'tool', [result('call_view_9', 'view', '<file>\n     1|package parser\n</file>')]);
  s.msg(
    id,
    'assistant',
    [text('Summary: the person asked to refactor parser.go; it was read.'), fin('end_turn')],
    { summary: true },
  );
  s.msg(id, 'user', [
    text(
      'The previous session was interrupted because it got too long, the initial user request was: `Refactor the parser.`',
    ),
  ]);
  s.msg(id, 'assistant', [text('Refactored parser.go.'), fin('end_turn')]);
  s.done();
}
