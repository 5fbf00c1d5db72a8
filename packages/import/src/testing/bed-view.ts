import { openJsonlPersistence, type StoredLog } from '@strand/persistence';
import type { SessionEvent } from '@strand/session';
import { expect } from 'vitest';
import type { ConversationItem } from '@strand/harness-bed';

/**
 * An imported session seen as the bed's conversation items, to compare with what the model
 * endpoint saw: the prompts its person (or parent agent) typed, with their author; images; the
 * model's replies and tool calls; the tool results. Injected context (author `system`), turn
 * markers, titles and usage-only messages are not conversation the endpoint was given by a
 * person, so they are left out. A prompt is compared as the endpoint saw it: a slash command
 * expanded (Gemini CLI), or, where Strand keeps it as a `session/command` (Claude Code, whose
 * wire wraps it in `<command-name>` tags), as the `/name args` the person typed.
 */
export async function importedConversation(dataDir: string, log: StoredLog): Promise<ConversationItem[]> {
  const persistence = await openJsonlPersistence({ root: dataDir });
  try {
    const items: ConversationItem[] = [];
    for (const event of log.events) items.push(...(await itemsOf(event, log, persistence)));
    return items;
  } finally {
    await persistence.close();
  }
}

type Persistence = Awaited<ReturnType<typeof openJsonlPersistence>>;

async function itemsOf(
  event: SessionEvent,
  log: StoredLog,
  persistence: Persistence,
): Promise<ConversationItem[]> {
  const data = (event.data ?? {}) as Record<string, unknown>;
  switch (event.type) {
    case 'user/message': {
      const author = data.author;
      if (author !== 'human' && author !== 'agent') return [];
      const items: ConversationItem[] = [];
      const text = textOf(data.content);
      if (text.trim().length > 0) items.push({ kind: 'prompt', author, text: text.trim() });
      for (const ref of imageRefs(data.content)) {
        const attachment = await persistence.readAttachment(log.header.id, ref);
        items.push({ kind: 'image', mediaType: attachment.mediaType });
      }
      return items;
    }
    case 'session/command': {
      // The person typed it; the endpoint saw it in the harness's wrapper (see `typedCommand`).
      const args = typeof data.args === 'string' ? ` ${data.args}` : '';
      return [{ kind: 'prompt', author: 'human', text: `/${String(data.name)}${args}` }];
    }
    case 'assistant/message': {
      const text = textOf(data.content);
      return text.length > 0 ? [{ kind: 'reply', text }] : [];
    }
    case 'tool/call':
      return [
        {
          kind: 'tool-call',
          name: typeof data.name === 'string' ? data.name : '',
          input: parsed(typeof data.arguments === 'string' ? data.arguments : ''),
        },
      ];
    case 'tool/result':
      return [{ kind: 'tool-result', output: textOf(data.content) }];
    default:
      return [];
  }
}

function blocks(content: unknown): Record<string, unknown>[] {
  return Array.isArray(content)
    ? content.filter((b): b is Record<string, unknown> => typeof b === 'object' && b !== null)
    : [];
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return blocks(content)
    .flatMap((b) => (b.type === 'text' && typeof b.text === 'string' ? [b.text] : []))
    .join('\n');
}

function imageRefs(content: unknown): string[] {
  return blocks(content).flatMap((b) => (b.type === 'image' && typeof b.ref === 'string' ? [b.ref] : []));
}

function parsed(args: string): unknown {
  try {
    return JSON.parse(args) as unknown;
  } catch {
    return args;
  }
}

/**
 * Checks an imported session's conversation against what the endpoint saw. A tool call's
 * arguments may hold more than the model sent: harnesses record them with their defaults filled
 * in (Claude Code's `replace_all: false`), so every argument the model sent must be there as sent.
 * A freeform call (an OpenAI `custom` tool: Codex's `apply_patch`) has no JSON arguments; Strand
 * keeps its text as `{ input }`. A thread that ends with a call (a Gemini CLI subagent's
 * `complete_task`) sends no request after it, so the endpoint never sees that call's result; the
 * harness may still record it, so results after the last expected call are not compared.
 */
export function expectConversation(
  actual: readonly ConversationItem[],
  expected: readonly ConversationItem[],
): void {
  const endsWithCall = expected.at(-1)?.kind === 'tool-call';
  let end = actual.length;
  while (endsWithCall && end > 0 && actual[end - 1]!.kind === 'tool-result') end--;
  expect(actual.slice(0, end)).toEqual(
    expected.map((item) => {
      if (item.kind === 'prompt') return { ...item, text: typedCommand(item.text) ?? item.text };
      if (item.kind !== 'tool-call') return item;
      if (typeof item.input === 'string') return { ...item, input: { input: item.input } };
      if (typeof item.input === 'object' && item.input !== null)
        return { ...item, input: expect.objectContaining(item.input) };
      return item;
    }),
  );
}

/** A prompt that is only Claude Code's slash-command wrapper, as the command typed (`/greet Ada`). */
function typedCommand(text: string): string | undefined {
  const name = /<command-name>([\s\S]*?)<\/command-name>/.exec(text)?.[1]?.trim();
  if (name === undefined) return undefined;
  const rest = text.replace(/<command-(message|name|args)>[\s\S]*?<\/command-\1>/g, '').trim();
  if (rest.length > 0) return undefined;
  const args = /<command-args>([\s\S]*?)<\/command-args>/.exec(text)?.[1]?.trim() ?? '';
  return args.length > 0 ? `${name} ${args}` : name;
}
