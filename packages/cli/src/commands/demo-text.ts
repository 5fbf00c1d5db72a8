import type { SessionEventInput } from '@strand/session';

/**
 * Text for the demo corpus that reads like a real session (the benchmark workload's random
 * letters stay in the workload generator): `humanizeTurn` keeps a workload turn's shape — the
 * same events, order, call ids and times — and swaps its texts for ones from the lists below.
 */
const PROMPTS = [
  'The JSONL writer fsyncs once per event. Can you batch concurrent appends into one frame?',
  'Follow reconnects flicker: the list empties for a moment before the new snapshot arrives. Why?',
  'Add a `--json` flag to `strand agents` and keep the table for people.',
  'Cold inspect of a 100k-event session takes 4 s. Where does the time go?',
  'Write a test that kills the host mid-write and checks the log is repaired on restart.',
  'Rename `SessionLog` to `DurableLog` everywhere and update the docs.',
];

const NARRATION = [
  'Let me look at the writer first.',
  'I will read the follow hub to see where the snapshot is replaced.',
  'Now I will update the test to cover the failing case.',
  'Checking how the cache rows are restored.',
  'Writing the change.',
];

const FILES = [
  'packages/persistence/src/jsonl/writer.ts',
  'packages/host/src/follow/follow-hub.ts',
  'packages/client/src/follow/follower.ts',
  'packages/query/src/session-query.ts',
  'packages/cli/src/commands/agents.ts',
];

const SNIPPETS = [
  `export async function flush(queue: Batch[]): Promise<void> {\n  const frame = encodeFrame(queue.flatMap((batch) => batch.events));\n  await file.write(frame);\n  await file.sync();\n  for (const batch of queue) batch.resolve();\n}\n`,
  `if (snapshot.generation < this.#generation) return; // an older follow: ignore\nthis.#state = { ...snapshot, events: [...snapshot.events] };\nthis.#notify();\n`,
  `const rows = await listAgents(session, { scope: 'children' });\nif (options.json) process.stdout.write(JSON.stringify(rows) + '\\n');\nelse printTable(rows);\n`,
  `for (const unit of registry.units) {\n  const row = cache.get(unit.key, cut);\n  state[unit.key] = row?.usable ? row.value : fold(unit, events);\n}\n`,
];

const REPLIES = [
  `Done. The writer now groups concurrent appends:\n\n- appends that arrive while a write is in flight join the **next** frame\n- one \`fsync\` per frame instead of one per event\n- a failed write rejects every batch in the frame\n\n\`\`\`ts\nconst frame = encodeFrame(queue.flatMap((batch) => batch.events));\nawait file.write(frame);\nawait file.sync();\n\`\`\`\n\nOn the benchmark the p50 append latency went from 2.1 ms to 0.4 ms under 8 writers.`,
  `The flicker comes from the follower clearing its events before the new generation's snapshot is validated.\n\n1. \`reconnect\` resets the view to \`opening\`\n2. the list renders empty\n3. the snapshot arrives and fills it again\n\nI changed it to keep the old state until the new snapshot replaces it, and added a test that reconnects mid-turn.`,
  `Added \`--json\`. The table stays the default:\n\n| flag | output |\n| --- | --- |\n| (none) | aligned table |\n| \`--json\` | one JSON array |\n\nThe MCP test now compares against the JSON rows.`,
  `Most of the time is the fold of \`usage\` and \`subagentTiming\` over all events — the cache rows were skipped because their revision did not match.\n\n- fixed the revision check so a matching row is used\n- the remaining cost is decoding (about 0.6 s)\n\nCold inspect is now 0.9 s.`,
];

/** A word every demo session's messages contain (each tool result says "wrote N lines to …"). */
export const DEMO_COMMON_WORD = 'lines';

function pick<T>(list: readonly T[], index: number): T {
  return list[index % list.length]!;
}

/** One workload turn with demo text: same events and ids, readable content. */
export function humanizeTurn(turn: readonly SessionEventInput[], index: number): SessionEventInput[] {
  const args = new Map<string, string>();
  let step = 0;
  const argsFor = (callId: string): string => {
    let value = args.get(callId);
    if (value === undefined) {
      value = JSON.stringify({
        path: pick(FILES, index + step),
        content: pick(SNIPPETS, index + step),
      });
      args.set(callId, value);
    }
    return value;
  };
  return turn.map((event): SessionEventInput => {
    const data = event.data as Record<string, unknown>;
    switch (event.type) {
      case 'user/message':
        return { ...event, data: { ...data, content: pick(PROMPTS, index) } };
      case 'assistant/message': {
        const calls = data.toolCalls as { id: string; name: string }[] | undefined;
        if (calls === undefined || calls.length === 0)
          return { ...event, data: { ...data, content: pick(REPLIES, index) } };
        step++;
        return {
          ...event,
          data: {
            ...data,
            content: pick(NARRATION, index + step),
            toolCalls: calls.map((call) => ({ ...call, arguments: argsFor(call.id) })),
          },
        };
      }
      case 'tool/call':
        return { ...event, data: { ...data, arguments: argsFor(data.callId as string) } };
      case 'tool/result': {
        const parsed = JSON.parse(argsFor(data.callId as string)) as { path: string; content: string };
        return {
          ...event,
          data: { ...data, content: `wrote ${parsed.content.split('\n').length} lines to ${parsed.path}` },
        };
      }
      default:
        return event;
    }
  });
}
