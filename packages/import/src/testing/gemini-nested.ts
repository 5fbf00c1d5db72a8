/**
 * Synthetic Gemini CLI chats of one session: the person's and nested agents' (no real data), shaped
 * as gemini-cli wrote them (local-executor, Jan 2026): a nested chat's opening prompt is the
 * agent's query template with the call's inputs, a recovery prompt follows when it stops calling
 * tools; the person's chat records a call made without text first only when the tool completes,
 * after the nested chat started.
 */
export const SID = 'abcdabcd-0000-4000-8000-00000000000a';
export const at = (time: string) => `2026-01-10T${time}.000Z`;
export const ASK = (question: string) =>
  `Your task is to answer the following question about Gemini CLI:\n<question>\n${question}\n</question>`;
export const STOPPED =
  'You have stopped calling tools without finishing. You have one final chance to complete the task with a short grace period. You MUST call `complete_task` immediately with your best answer and explain that your investigation was interrupted. Do not call any other tools.';

export type Message = Record<string, unknown>;
export const user = (id: string, time: string, text: string): Message => ({
  id,
  timestamp: at(time),
  type: 'user',
  content: [{ text }],
});
export const reply = (id: string, time: string, text: string, toolCalls?: Message[]): Message => ({
  id,
  timestamp: at(time),
  type: 'gemini',
  content: text,
  model: 'gemini-3-flash-preview',
  ...(toolCalls === undefined ? {} : { toolCalls }),
});
export const delegate = (id: string, time: string, name: string, args: Record<string, string>): Message => ({
  id,
  name,
  args,
  status: 'success',
  timestamp: at(time),
  result: [{ functionResponse: { id, name, response: { output: 'done' } } }],
});

export interface Chat {
  readonly name: string;
  readonly start: string;
  readonly messages: Message[];
}

export const CHATS: Chat[] = [
  {
    name: '10-00',
    start: '10:00:00',
    messages: [
      user('h1', '10:00:01', 'Which themes are there, and why is the build slow?'),
      // Written when the tool completed (10:01:40), after the nested chat started (10:01:05).
      reply('h2', '10:01:40', '', [
        delegate('d1', '10:01:40', 'delegate_to_agent', {
          agent_name: 'cli_help',
          question: 'Which themes ship with Gemini CLI?',
        }),
      ]),
      // Written when the model asked, before its chat started; the agent as a tool of its own
      // (Jan–Apr 2026).
      reply('h3', '10:03:00', 'Now the build.', [
        delegate('d2', '10:03:00', 'codebase_investigator', { objective: 'Find why the build is slow' }),
      ]),
      reply('h4', '10:04:30', 'Done.'),
    ],
  },
  {
    name: '10-01',
    start: '10:01:05',
    messages: [
      user('a1', '10:01:05', ASK('Which themes ship with Gemini CLI?')),
      reply('a2', '10:01:20', 'There are several.'),
      user('a3', '10:01:21', STOPPED),
      reply('a4', '10:01:30', 'Default, Dracula and others.'),
    ],
  },
  {
    name: '10-03',
    start: '10:03:02',
    messages: [
      user(
        'b1',
        '10:03:02',
        'Your task is to investigate:\n<objective>\nFind why the build is slow\n</objective>',
      ),
      reply('b2', '10:04:00', 'The bundler runs twice.'),
    ],
  },
  {
    // A chat of the same session no call of the person's ran: it stays a session of its own.
    name: '10-05',
    start: '10:05:00',
    messages: [user('c1', '10:05:00', ASK('Something nobody asked')), reply('c2', '10:05:10', 'No idea.')],
  },
];

const meta = (chat: Chat) => ({ sessionId: SID, projectHash: 'f'.repeat(64), startTime: at(chat.start) });

export const LAYOUTS = {
  'whole-JSON (.json)': (chat: Chat) => ({
    file: `session-2026-01-10T${chat.name}-abcdabcd.json`,
    text: JSON.stringify({ ...meta(chat), lastUpdated: at(chat.start), messages: chat.messages }),
  }),
  'JSONL (.jsonl)': (chat: Chat) => ({
    file: `session-2026-01-10T${chat.name}-abcdabcd.jsonl`,
    text: [meta(chat), ...chat.messages].map((row) => JSON.stringify(row)).join('\n') + '\n',
  }),
};
