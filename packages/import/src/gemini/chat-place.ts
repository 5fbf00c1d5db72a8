import { defined } from '@strand/session';
import { matchDelegations, type DelegationCall } from './delegation-match.js';

/**
 * Which chat of a Gemini session a file holds. gemini-cli writes one chat file per `GeminiChat`,
 * and a nested agent (`delegate_to_agent`) gets its own chat file with the parent's `sessionId`
 * and messages of its own; a resumed whole-JSON chat is migrated to a JSONL file with the same
 * `sessionId` and the same messages. So a shared `sessionId` does not make two files copies: only
 * messages do. Pure: the outlines are read by the caller.
 */

/** What a chat file's messages say about it, for telling copies from distinct chats. */
export interface ChatOutline {
  readonly file: string;
  readonly sessionId: string;
  readonly startTime: number | undefined;
  /** Message ids in file order, after the fold (upserts, rewinds). */
  readonly ids: readonly string[];
  /** The text of the user messages before the first reply: a nested chat's delegated prompt. */
  readonly prompt?: string;
  /** The delegation calls the chat made: when, the agent named, the inputs passed. */
  readonly delegations: readonly DelegationCall[];
}

export type ChatPlace =
  /** The session's own chat (the person's): it keeps the id `gemini-<sessionId>`. */
  | { readonly kind: 'main' }
  /**
   * Another chat under the same `sessionId`: its own session, keyed by its first message id; a
   * subagent child of the main chat when one of that chat's delegation calls ran it
   * (`matchDelegations`: by the call's inputs in its prompt, time only breaking ties).
   */
  | {
      readonly kind: 'distinct';
      readonly key: string;
      readonly delegatedBy?: { readonly agent?: string };
    };

/**
 * Files are copies of one chat when one's message ids are a subset of the other's (a prefix is a
 * subset); copies form clusters. The cluster that started first is the main chat — a nested
 * agent's chat starts while its parent's call runs, so after the parent — ties broken by path.
 * A chat with no messages yet takes no part (it would join every cluster) and is the main one.
 */
export function placeChat(self: ChatOutline, siblings: readonly ChatOutline[]): ChatPlace {
  const same = [self, ...siblings.filter((s) => s.file !== self.file && s.sessionId === self.sessionId)];
  if (self.ids.length === 0) return { kind: 'main' };
  const members = same.filter((s) => s.ids.length > 0);
  const root = members.map((_, i) => i);
  const find = (i: number): number => (root[i] === i ? i : (root[i] = find(root[i]!)));
  const sets = members.map((m) => new Set(m.ids));
  for (let i = 0; i < members.length; i++)
    for (let j = i + 1; j < members.length; j++)
      if (subset(members[i]!.ids, sets[j]!) || subset(members[j]!.ids, sets[i]!)) root[find(i)] = find(j);
  const clusters = new Map<number, ChatOutline[]>();
  members.forEach((m, i) => {
    const key = find(i);
    clusters.set(key, [...(clusters.get(key) ?? []), m]);
  });
  const ordered = [...clusters.values()]
    .map((cluster) => ({ cluster, start: Math.min(...cluster.map(startOf)), path: minPath(cluster) }))
    .sort((a, b) => order(a.start, b.start) || order(a.path, b.path));
  const main = ordered[0]!.cluster;
  if (main.includes(self)) return { kind: 'main' };
  const mine = ordered.findIndex((o) => o.cluster.includes(self));
  // Keyed by position: two distinct chats may share a first message id (a rewound copy's).
  const nested = ordered.map((o, i) => ({ key: String(i), start: o.start, prompt: promptOf(o.cluster) }));
  const call = matchDelegations(
    nested.slice(1),
    main.flatMap((m) => m.delegations),
  ).get(String(mine));
  return {
    kind: 'distinct',
    key: keyOf(ordered[mine]!.cluster),
    ...(call === undefined ? {} : { delegatedBy: defined({ agent: call.agent }) }),
  };
}

// The longest copy names the chat: every copy of a growing chat shares its first message.
function keyOf(cluster: readonly ChatOutline[]): string {
  return longest(cluster).ids[0]!;
}

function promptOf(cluster: readonly ChatOutline[]): string | undefined {
  return longest(cluster).prompt ?? cluster.map((c) => c.prompt).find((p) => p !== undefined);
}

function longest(cluster: readonly ChatOutline[]): ChatOutline {
  return [...cluster].sort((a, b) => b.ids.length - a.ids.length || order(a.file, b.file))[0]!;
}

function order<T extends number | string>(a: T, b: T): number {
  return a === b ? 0 : a < b ? -1 : 1;
}

function subset(ids: readonly string[], of: ReadonlySet<string>): boolean {
  return ids.every((id) => of.has(id));
}

function startOf(chat: ChatOutline): number {
  return chat.startTime ?? Number.POSITIVE_INFINITY;
}

function minPath(cluster: readonly ChatOutline[]): string {
  return cluster.map((c) => c.file).sort()[0]!;
}
