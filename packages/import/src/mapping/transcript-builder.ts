import { commandLine, type SessionEventInput, type TurnEndReason } from '@strand/session';
import { toContent, type ContentBlock } from './attachments.js';
import { shortTitle } from './title.js';
import { isNoUsage, logUsage, sumUsage as sum, type Usage } from './usage.js';

export type Content = string | readonly ContentBlock[];
export type Author = 'human' | 'agent' | 'system';

export interface Route {
  readonly provider: string;
  readonly model: string;
  readonly reasoningEffort?: string;
}

export type { Usage } from './usage.js';

interface PendingAssistant {
  time: number;
  texts: ContentBlock[];
  calls: { id: string; name: string; arguments: string }[];
  usage: Usage | undefined;
  route: Route | undefined;
}

/**
 * Turns a harness's records, fed in conversation order, into core-vocabulary events.
 *
 * The one law it serves (live ingest depends on it): **mapping any prefix of a transcript yields
 * a prefix of the events of mapping the whole transcript.** So:
 * - each source record maps to its own events: mappers call `flushAssistant` at the end of every
 *   record, and nothing a record wrote is merged with, or changed by, a later record;
 * - nothing is written for the end of the input: `finish()` writes no closers, and a turn left
 *   open stays open (the session has a `source`, so crash repair never closes it either);
 * - a turn is closed only when a later record shows its end: the next prompt or turn start, or
 *   the harness's own end marker. A call still unanswered then gets the `TOOL_OUTCOME_UNKNOWN`
 *   result crash repair would write;
 * - synthetic events take the time of the record they stand for (a turn's implicit end takes the
 *   time of its last event).
 *
 * Other invariants: every `tool/call` (one per call id) gets at most one `tool/result`; an
 * `assistant/message` is followed by the `tool/call`s it announces, and a `request/header`
 * precedes it whenever the route differs from the last one written.
 */
export class TranscriptBuilder {
  readonly events: SessionEventInput[] = [];
  #turnOpen = false;
  #lastTime: number | undefined;
  #titled = false;
  /** The title written last (or waiting for a time): a marker restating it writes nothing. */
  #title: string | undefined;
  #pendingTitle: string | undefined;
  #lastRouteKey: string | undefined;
  /** Unanswered calls of the open turn, in call order. */
  #openCalls: string[] = [];
  readonly #answered = new Set<string>();
  readonly #called = new Set<string>();
  #pending: PendingAssistant | undefined;
  #orphanUsage: Usage | undefined;
  #turnError: string | undefined;
  #messages = 0;

  /** True once any user or assistant message was written: a transcript without one is not a session. */
  get hasConversation(): boolean {
    return this.#messages > 0;
  }

  get turnOpen(): boolean {
    return this.#turnOpen;
  }

  get lastTime(): number | undefined {
    return this.#lastTime;
  }

  /**
   * A title the transcript states (a summary, a custom title). Without a known time yet (a
   * summary line ahead of any timestamp) it waits for the next event and takes its time.
   */
  explicitTitle(text: string, time: number | undefined): void {
    const title = shortTitle(text);
    if (title === undefined) return;
    this.#titled = true;
    // A harness may restate its title (Claude Code writes one `ai-title` per turn, most of them
    // alike): only a change is a rename.
    if (title === this.#title) return;
    this.#title = title;
    const at = time ?? this.#lastTime;
    if (at === undefined) {
      this.#pendingTitle = title;
      return;
    }
    this.flushAssistant();
    this.#emit('session/title', { title }, at);
  }

  /**
   * A prompt. With `startsTurn` (the default) it closes an open turn and opens a new one; without
   * it the prompt joins the open turn (a message typed while the agent works). The first prompt
   * titles a session that has no title yet.
   */
  prompt(
    content: Content,
    author: Author,
    time: number,
    options: { titleText?: string; startsTurn?: boolean } = {},
  ): void {
    this.#personActs(time, options.startsTurn ?? true, options.titleText);
    this.#emit('user/message', { content, author }, time);
    this.#messages++;
  }

  /**
   * A command the person ran in the harness (a slash command; `name` without its slash). It opens
   * a turn as a prompt does, and titles an untitled session as `/name args` (as it did when
   * commands were prompts), but it is written as `session/command`, not as text to the model.
   */
  command(name: string, args: string | undefined, time: number): void {
    const command = args === undefined ? { name } : { name, args };
    this.#personActs(time, true, commandLine(command));
    this.#emit('session/command', command, time);
    this.#messages++;
  }

  /** What a command printed: kept where it occurs, turn or not (it belongs to the last command). */
  commandOutput(text: string, stream: 'stdout' | 'stderr', time: number): void {
    this.flushAssistant();
    this.#emit('session/command-output', { text, stream }, time);
  }

  /** What a person's prompt or command does first: closes the open turn, titles, opens one. */
  #personActs(time: number, startsTurn: boolean, titleText: string | undefined): void {
    this.flushAssistant();
    if (startsTurn && this.#turnOpen) this.endTurn('auto');
    if (!this.#titled && titleText !== undefined) {
      const title = shortTitle(titleText);
      if (title !== undefined) {
        this.#titled = true;
        this.#title = title;
        this.#emit('session/title', { title }, time);
      }
    }
    if (!this.#turnOpen) this.startTurn(time);
  }

  /** A message no person typed (injected context, hook feedback): kept where it occurs, turn or not. */
  note(content: Content, time: number): void {
    this.harnessContext(content, time);
    this.#messages++;
  }

  /**
   * The context a harness puts before every chat of its own accord (date, OS, folder): kept as a
   * note, but no conversation by itself — a transcript holding nothing else is no session (Gemini
   * CLI 0.61 starts such a chat beside every chat it resumes, then records in the resumed one).
   */
  harnessContext(content: Content, time: number): void {
    this.flushAssistant();
    this.#emit('user/message', { content, author: 'system' }, time);
  }

  /** Opens a turn explicitly (a harness that records turn starts); closes an open one first. */
  startTurn(time: number): void {
    this.flushAssistant();
    if (this.#turnOpen) this.endTurn('auto');
    this.#emit('turn/start', {}, time);
    this.#turnOpen = true;
    this.#openCalls = [];
    this.#turnError = undefined;
  }

  assistantText(text: string, time: number): void {
    if (text.length === 0) return;
    this.#pendingAt(time).texts.push({ type: 'text', text });
  }

  assistantBlock(block: ContentBlock, time: number): void {
    this.#pendingAt(time).texts.push(block);
  }

  assistantToolCall(id: string, name: string, args: string, time: number): void {
    this.#pendingAt(time).calls.push({ id, name, arguments: args });
  }

  assistantRoute(route: Route, time: number): void {
    this.#pendingAt(time).route = route;
  }

  /**
   * A route the harness states apart from any response (Claude Code's `model` attachment): a
   * `request/header` now, inside the open turn, when it differs from the last one written. Outside
   * a turn it writes nothing: the next response's own route decides.
   */
  announceRoute(route: Route, time: number): void {
    this.flushAssistant();
    if (this.#turnOpen) this.#writeRoute(route, time);
  }

  /**
   * Token usage. `add` sums into the buffered response (or, with none buffered, into the next
   * one: some harnesses log a request's usage before its output); `replace` sets the buffered
   * response's usage (harnesses that repeat a growing usage on every streamed chunk).
   */
  assistantUsage(usage: Usage, mode: 'add' | 'replace'): void {
    if (isNoUsage(usage)) return;
    const pending = this.#pending;
    if (mode === 'replace' && pending !== undefined) pending.usage = usage;
    else if (pending !== undefined) pending.usage = sum(pending.usage, usage);
    else this.#orphanUsage = sum(this.#orphanUsage, usage);
  }

  /**
   * Usage a harness logs in a record of its own after the response it counts (Codex's
   * `token_count`). The response is already written and never rewritten, so the usage is an
   * `assistant/message` of its own with no content, in the open turn; outside a turn it rides on
   * the next response.
   */
  usageRecord(usage: Usage, time: number): void {
    this.flushAssistant();
    if (isNoUsage(usage)) return;
    if (!this.#turnOpen) {
      this.#orphanUsage = sum(this.#orphanUsage, usage);
      return;
    }
    this.#emit('assistant/message', { content: '', usage: logUsage(sum(usage, this.#orphanUsage)!) }, time);
    this.#orphanUsage = undefined;
  }

  /**
   * The cost the harness reported for the session so far (cumulative), with its split by model
   * where it gave one: a `session/cost` event of its own, after the response it follows.
   */
  reportedCost(usd: number, byModel: Readonly<Record<string, number>> | undefined, time: number): void {
    this.flushAssistant();
    this.#emit('session/cost', byModel === undefined ? { usd } : { usd, byModel: { ...byModel } }, time);
  }

  /** Remembers an error of the open turn; an implicit end then closes it with `error`. */
  turnError(message: string): void {
    this.flushAssistant();
    if (this.#turnOpen) this.#turnError = message;
  }

  /**
   * The session continues a Strand export (`strand-export.ts`): written ahead of the first record
   * the harness appended, so the events before it are the exported prefix. It takes the time of
   * the last event (the exported prefix's), as the record's own events follow it.
   */
  continuedFrom(data: { session: string; cut: number; harness: string }, time?: number): void {
    this.flushAssistant();
    this.#emit('session/continued-from', { ...data }, this.#lastTime ?? time ?? 0);
  }

  /** Writes the buffered assistant response, if any. */
  flushAssistant(): void {
    const pending = this.#pending;
    if (pending === undefined) return;
    this.#pending = undefined;
    const usage = sum(pending.usage, this.#orphanUsage);
    this.#orphanUsage = undefined;
    if (pending.texts.length === 0 && pending.calls.length === 0 && usage === undefined) return;
    if (!this.#turnOpen) this.startTurn(pending.time);
    if (pending.route !== undefined) this.#writeRoute(pending.route, pending.time);
    const data: Record<string, unknown> = { content: toContent(pending.texts) };
    if (pending.calls.length > 0) data.toolCalls = pending.calls;
    if (usage !== undefined) data.usage = logUsage(usage);
    this.#emit('assistant/message', data, pending.time);
    this.#messages++;
    for (const call of pending.calls) {
      // A reused call id cannot be told apart from the first use by its result: one call event.
      if (this.#called.has(call.id)) continue;
      this.#called.add(call.id);
      this.#emit('tool/call', { callId: call.id, name: call.name, arguments: call.arguments }, pending.time);
      this.#openCalls.push(call.id);
    }
  }

  /** A tool's outcome. A second result for one call (or one after its unknown-outcome closer) is dropped. */
  toolResult(callId: string, content: Content, isError: boolean, time: number): void {
    this.flushAssistant();
    if (this.#answered.has(callId)) return;
    if (!this.#turnOpen) this.startTurn(time);
    this.#answered.add(callId);
    this.#openCalls = this.#openCalls.filter((c) => c !== callId);
    this.#emit('tool/result', isError ? { callId, content, isError: true } : { callId, content }, time);
  }

  /**
   * Closes the open turn. `auto` means "the transcript moved on": `error` if the turn recorded
   * an error, else `completed`. Without `time` the end takes the time of the turn's last event.
   */
  endTurn(reason: TurnEndReason | 'auto', time?: number, error?: string): void {
    this.flushAssistant();
    if (!this.#turnOpen) return;
    const at = time ?? this.#lastTime!;
    for (const callId of this.#openCalls) {
      // A result logged ahead of its call (out-of-order lines) already answered it.
      if (this.#answered.has(callId)) continue;
      this.#answered.add(callId);
      this.#emit('tool/result', { callId, content: '', isError: true, code: 'TOOL_OUTCOME_UNKNOWN' }, at);
    }
    this.#openCalls = [];
    const resolved = reason === 'auto' ? (this.#turnError !== undefined ? 'error' : 'completed') : reason;
    const message = error ?? (resolved === 'error' ? this.#turnError : undefined);
    this.#emit(
      'turn/end',
      message === undefined ? { reason: resolved } : { reason: resolved, error: message },
      at,
    );
    this.#turnOpen = false;
    this.#turnError = undefined;
  }

  /**
   * End of the input read so far. Writes what the last record left buffered and nothing else: a
   * turn still open stays open, since the transcript may still grow (a live session) and a closer
   * written now would be taken back by the lines that follow.
   */
  finish(): void {
    this.flushAssistant();
  }

  #writeRoute(route: Route, time: number): void {
    const key = `${route.provider}\u0000${route.model}\u0000${route.reasoningEffort ?? ''}`;
    if (key === this.#lastRouteKey) return;
    this.#lastRouteKey = key;
    this.#emit('request/header', { ...route }, time);
  }

  #pendingAt(time: number): PendingAssistant {
    this.#pending ??= { time, texts: [], calls: [], usage: undefined, route: undefined };
    return this.#pending;
  }

  #emit(type: string, data: Record<string, unknown>, time: number): void {
    if (this.#pendingTitle !== undefined) {
      const title = this.#pendingTitle;
      this.#pendingTitle = undefined;
      this.events.push({ type: 'session/title', time, data: { title } });
    }
    this.events.push({ type, time, data });
    this.#lastTime = time;
  }
}
