/**
 * The conversation a model endpoint sees, in one neutral shape whatever the wire: what the
 * harness sent (messages of text, images, tool calls and tool results) and what the scripted
 * model answered. Tests compare an imported session with this, never with an importer's output.
 */

export type BedPart =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'image'; readonly mediaType: string; readonly data: string }
  | { readonly kind: 'tool-call'; readonly id: string; readonly name: string; readonly input: unknown }
  | {
      readonly kind: 'tool-result';
      readonly id: string;
      readonly output: string;
      readonly isError: boolean;
    };

export interface BedMessage {
  readonly role: 'user' | 'assistant';
  readonly parts: readonly BedPart[];
}

/** The wire formats the endpoint speaks. */
export type Wire = 'anthropic-messages' | 'openai-responses' | 'openai-chat' | 'gemini';

/** One request as the endpoint read it. */
export interface BedRequest {
  readonly wire: Wire;
  readonly path: string;
  readonly model: string;
  readonly stream: boolean;
  /** The system prompt (or instructions), text only. */
  readonly system: string;
  readonly messages: readonly BedMessage[];
  /** The names of the tools offered. */
  readonly tools: readonly string[];
  /** A structured-output request (a harness's own router or checker asks for JSON): its schema. */
  readonly jsonSchema?: unknown;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

/** A tool call the scripted model makes; `id` is generated when left out. */
export interface BedToolCall {
  readonly id?: string;
  readonly name: string;
  /**
   * The call's arguments; a string is a freeform call (an OpenAI Responses `custom` tool such as
   * Codex's `apply_patch`), sent as `custom_tool_call.input`.
   */
  readonly input: Record<string, unknown> | string;
  /** The tool's namespace where the wire groups tools (Codex's `multi_agent_v1`). */
  readonly namespace?: string;
}

export interface BedUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadTokens?: number;
  readonly cacheCreationTokens?: number;
  readonly reasoningTokens?: number;
}

/** What the scripted model answers to one request. */
export interface BedAnswer {
  readonly text?: string;
  /** Streamed in this many pieces (default 2), so harnesses see a real stream. */
  readonly pieces?: number;
  readonly toolCalls?: readonly BedToolCall[];
  readonly usage?: BedUsage;
  /**
   * Stream the first piece of the text, then hold the response open until the client goes away
   * (the interrupted-turn scenario signals the harness once the endpoint says it holds).
   */
  readonly hold?: boolean;
}

/** An answer with every tool call's id fixed: what was actually sent. */
export interface SentAnswer extends BedAnswer {
  readonly toolCalls: readonly (BedToolCall & { readonly id: string })[];
}

export const DEFAULT_USAGE: BedUsage = { inputTokens: 120, outputTokens: 12, cacheReadTokens: 40 };

/** The text of a message's text parts. */
export function textOf(message: BedMessage): string {
  return message.parts
    .filter((p): p is Extract<BedPart, { kind: 'text' }> => p.kind === 'text')
    .map((p) => p.text)
    .join('\n');
}

/** Splits a text into `pieces` parts of about equal length (at least one character each). */
export function splitText(text: string, pieces: number): string[] {
  const n = Math.max(1, Math.min(pieces, text.length));
  const size = Math.ceil(text.length / n);
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out.length === 0 ? [''] : out;
}

/**
 * A value for a JSON schema (a harness's structured-output request: Gemini CLI's router asks for
 * `{complexity_reasoning, complexity_score}`): the required properties filled by their types.
 */
export function valueForSchema(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null) return {};
  const s = schema as Record<string, unknown>;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  const type = (typeof s.type === 'string' ? s.type : 'object').toLowerCase();
  switch (type) {
    case 'string':
      return 'bed';
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return false;
    case 'array':
      return [];
    default: {
      const props = (typeof s.properties === 'object' && s.properties !== null ? s.properties : {}) as Record<
        string,
        unknown
      >;
      const out: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(props)) out[key] = valueForSchema(value);
      return out;
    }
  }
}
