import {
  contentText,
  conversationOf,
  type ConversationCall,
  type ConversationItem,
} from '../conversation.js';
import type { ExportDocument } from '../document.js';

/** The event a Strand child's own log starts with (`@strand/subagent`'s descriptor). */
const DESCRIPTOR = 'subagent/descriptor';

/** Claude Code's built-in agent type, for a child whose call names none (Strand's `spawn_agent`). */
const DEFAULT_AGENT_TYPE = 'general-purpose';

/** A child of the exported session, as its sidechain and the parent's call that started it see it. */
export interface SidechainChild {
  readonly document: ExportDocument;
  /** The child's own log: the events after its (last) descriptor — a forked child's inherited turns are the parent's. */
  readonly own: ExportDocument;
  /** The task the child was given: its first prompt (`''` for a child with none yet). */
  readonly prompt: string;
  /** The descriptor's label, else the call's `description`. */
  readonly description: string | undefined;
  /** The call's `subagent_type`, else Claude Code's `general-purpose`. */
  readonly agentType: string;
  /** The parent's call that started it, when one is found. */
  readonly call: ConversationCall | undefined;
}

/**
 * Each child with the parent's call that started it, as Claude Code links a sidechain (the call
 * id in the child's `.meta.json`, the agent id on the call's result). Strand keeps no such link,
 * so it is found: the call whose result names the child's Strand id (Strand's `spawn_agent`
 * answers `Spawned … (id <child>)`), else the first unlinked call whose `prompt` or `task` is the
 * child's first prompt (Claude Code's `Agent`/`Task`, also once imported). Each call starts at
 * most one child; a child with no such call is still written, unlinked.
 */
export function linkChildren(
  parentItems: readonly ConversationItem[],
  children: readonly ExportDocument[],
): SidechainChild[] {
  const calls = parentItems.flatMap((item) => (item.kind === 'step' ? item.calls : []));
  const taken = new Set<ConversationCall>();
  const pending = children.map((document) => {
    const own = ownLog(document);
    return { document, own, prompt: firstPrompt(own) };
  });
  const byId: (ConversationCall | undefined)[] = [];
  for (const { document } of pending) {
    const call = calls.find(
      (c) =>
        !taken.has(c) &&
        names(c.result === undefined ? undefined : contentText(c.result.content), document.header.id),
    );
    if (call !== undefined) taken.add(call);
    byId.push(call);
  }
  return pending.map(({ document, own, prompt }, i) => {
    let call = byId[i];
    if (call === undefined && prompt !== '') {
      call = calls.find((c) => !taken.has(c) && [c.input.prompt, c.input.task].includes(prompt));
      if (call !== undefined) taken.add(call);
    }
    const input = call?.input ?? {};
    const description = labelOf(document) ?? stringOr(input.description);
    return {
      document,
      own,
      prompt,
      description,
      agentType: stringOr(input.subagent_type) ?? DEFAULT_AGENT_TYPE,
      call,
    };
  });
}

/** The events after the log's last descriptor (the whole log when it has none). */
function ownLog(document: ExportDocument): ExportDocument {
  const events = document.events;
  let start = 0;
  for (let i = events.length - 1; i >= 0; i--)
    if (events[i]!.type === DESCRIPTOR) {
      start = i + 1;
      break;
    }
  return start === 0 ? document : { ...document, events: events.slice(start) };
}

function firstPrompt(document: ExportDocument): string {
  const prompt = conversationOf(document).items.find((item) => item.kind === 'prompt');
  return prompt?.kind === 'prompt' ? contentText(prompt.content) : '';
}

function labelOf(document: ExportDocument): string | undefined {
  for (let i = document.events.length - 1; i >= 0; i--) {
    const event = document.events[i]!;
    if (event.type !== DESCRIPTOR) continue;
    const data = event.data as { label?: unknown } | null;
    return stringOr(data?.label);
  }
  return undefined;
}

/** `text` names `id` as a whole word (so `s-1` is not found in `s-10`). */
function names(text: string | undefined, id: string): boolean {
  if (text === undefined) return false;
  for (let at = text.indexOf(id); at >= 0; at = text.indexOf(id, at + 1)) {
    const before = text[at - 1];
    const after = text[at + id.length];
    if (!isIdChar(before) && !isIdChar(after)) return true;
  }
  return false;
}

const isIdChar = (c: string | undefined): boolean => c !== undefined && /[\w-]/.test(c);

const stringOr = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;
