import { defined } from '@strand/session';
import type { FileReports } from '../mapping/file-reports.js';
import { isRecord, parseLine, str, type JsonRecord } from '../source/json-record.js';
import type { SourceLine } from '../source/line-reader.js';

export interface ChatMessage {
  readonly record: JsonRecord;
  /** The line of the row that wrote its final state (null in a whole-JSON file). */
  readonly line: number | null;
  /** Where a message without a line of its own sits: its index in the `messages` array. */
  readonly index?: number;
}

/** One step of a chat in file order: a message row as written (repeats included), or a summary title. */
export type ChatRow =
  | { readonly kind: 'message'; readonly message: ChatMessage }
  | { readonly kind: 'title'; readonly text: string };

/** A chat file folded to what Gemini CLI itself would load. */
export interface FoldedChat {
  readonly meta: JsonRecord;
  readonly messages: readonly ChatMessage[];
  /** A summary title and how many messages preceded the `$set` that wrote it. */
  readonly summary?: { readonly text: string; readonly after: number };
  /**
   * The rows in file order, for a mapping that must extend as the file grows (the import's prefix
   * law): every message row as written, upserts included; the messages of a `$set.messages` list
   * only while no message row came before it; summaries where they were set. Rewinds are not in
   * it (a rewind cannot take back what was shown): they are reported.
   */
  readonly rows: readonly ChatRow[];
}

/**
 * Folds JSONL chat records the way gemini-cli's loader does: rows are upserts by `id` (a message
 * is written again, whole, when its tool calls finish — it keeps its first position);
 * `{"$rewindTo": id}` removes that message and everything after it (an unknown id clears all);
 * `{"$set": {...}}` patches the metadata. A `$set.messages` list (the model's context after
 * compression, or the a2a-server variant's whole history) is used only when the file has no
 * message rows at all: following it would drop history at every compression.
 */
export class ChatFolder {
  meta: JsonRecord = {};
  readonly #messages = new Map<string, ChatMessage>();
  #setMessages: { messages: unknown[]; line: number | null } | undefined;
  #summary: { text: string; after: number } | undefined;
  readonly #rows: ChatRow[] = [];
  #sawMessageRow = false;

  readonly #reports: FileReports;

  constructor(reports: FileReports) {
    this.#reports = reports;
  }

  line(line: SourceLine, first: boolean): void {
    const parsed = parseLine(line);
    if (parsed.kind === 'blank') return;
    if (parsed.kind === 'bad') {
      this.#reports.skipRecord(line.line, parsed.reason);
      return;
    }
    this.record(parsed.record, line.line, first);
  }

  record(record: JsonRecord, line: number | null, first: boolean, index?: number): void {
    if (typeof record.$rewindTo === 'string') {
      const ids = [...this.#messages.keys()];
      const at = ids.indexOf(record.$rewindTo);
      for (const id of at < 0 ? ids : ids.slice(at)) this.#messages.delete(id);
      this.#reports.note(
        line,
        `$rewindTo ${record.$rewindTo}: the rewound messages stay in the session (what was imported is never taken back)`,
      );
    } else if (typeof record.id === 'string') {
      const existing = this.#messages.get(record.id);
      const message = { record, line, ...defined({ index }) };
      // Map.set keeps an existing key's position: a rewritten row stays where it first appeared.
      this.#messages.set(record.id, message);
      this.#rows.push({ kind: 'message', message });
      this.#sawMessageRow = true;
      if (existing === undefined && typeof record.type !== 'string')
        this.#reports.skipRecord(line, `${where(index)}message ${record.id} has no type`);
    } else if (isRecord(record.$set)) {
      this.#patch(record.$set, line);
    } else if (typeof record.sessionId === 'string' && (first || typeof record.projectHash === 'string')) {
      this.#patch(record, line);
    } else {
      this.#reports.skipRecord(
        line,
        'unknown record (neither a message, $set, $rewindTo nor the metadata line)',
      );
    }
  }

  #patch(patch: JsonRecord, line: number | null): void {
    const { messages, ...rest } = patch;
    this.meta = { ...this.meta, ...rest };
    if (Array.isArray(messages)) {
      this.#setMessages = { messages, line };
      // Listed before any message row (0.6x opens every chat so, with its `<session_context>`),
      // they are the chat's first messages: rows, and ids that tell copies of the chat apart.
      if (!this.#sawMessageRow)
        messages.forEach((record, index) => {
          if (!isRecord(record)) return;
          const message = { record, line, index };
          this.#rows.push({ kind: 'message', message });
          if (typeof record.id === 'string') this.#messages.set(record.id, message);
        });
    }
    const summary = str(rest.summary);
    if (summary !== undefined) {
      this.#summary = { text: summary, after: this.#messages.size };
      this.#rows.push({ kind: 'title', text: summary });
    }
  }

  /** The rows so far, in file order (the live list: it grows as lines are fed). */
  get rows(): readonly ChatRow[] {
    return this.#rows;
  }

  result(): FoldedChat {
    let messages = [...this.#messages.values()];
    if (messages.length === 0 && this.#setMessages !== undefined) {
      // Messages listed in a `$set` row: that row's line, and each one's index in its list.
      const { line } = this.#setMessages;
      messages = this.#setMessages.messages.flatMap((record, index) =>
        isRecord(record) ? [{ record, line, index }] : [],
      );
    }
    return {
      meta: this.meta,
      messages,
      rows: [...this.#rows],
      ...defined({ summary: this.#summary }),
    };
  }
}

/** A whole-JSON chat file: `{sessionId, projectHash, startTime, lastUpdated, messages[]}`. */
export function foldWholeJson(document: JsonRecord, reports: FileReports): FoldedChat {
  const folder = new ChatFolder(reports);
  const { messages, ...meta } = document;
  folder.meta = meta;
  if (Array.isArray(messages)) {
    messages.forEach((message, index) => {
      if (isRecord(message)) folder.record(message, null, false, index);
      else reports.skipRecord(null, `${where(index)}not an object`);
    });
  }
  const folded = folder.result();
  const summary = str(meta.summary);
  return summary === undefined
    ? folded
    : {
        ...folded,
        summary: { text: summary, after: folded.messages.length },
        rows: [...folded.rows, { kind: 'title', text: summary }],
      };
}

/** Names a message of a whole-JSON file (it has no line of its own) in a report. */
export function where(index: number | undefined): string {
  return index === undefined ? '' : `messages[${index}]: `;
}
