import { FileReports } from '../mapping/file-reports.js';
import type { MappedFile, SessionPlan } from '../mapping/session-plan.js';
import { TranscriptBuilder, type Route } from '../mapping/transcript-builder.js';
import { mapWholeFile, type TranscriptFold } from '../mapping/transcript-fold.js';
import type { Usage } from '../mapping/usage.js';
import type { SessionPeek, SourceUnit } from '../run/harness-importer.js';
import type { LineReadEnd, SourceLine } from '../source/line-reader.js';
import { classifyLine, modelLine, providerOf, replyText, sessionCost, tokensUsage } from './history-lines.js';
import { aiderId, type AiderFacts } from './peek.js';

/** Slash commands whose text is sent to the model as the prompt (aider/commands.py). */
const ASKING = /^\/(ask|code|architect|context|chat-mode\s+\S+)\s+([\s\S]+)$/;
const INTERRUPT = /^\^C (again to exit|KeyboardInterrupt)$/;
// A failed model request (`check_and_open_urls`, `send_message`): litellm's exception, or a Python one.
const REQUEST_ERROR = /^(litellm\.\w+|\w*(Error|Exception)): /;
// The architect's question before its editor model answers (aider/coders/architect_coder.py).
const EDIT_CONFIRMED = /^Edit the files\?.*\s(y|yes|a|all)$/i;
const COST_CONTINUATION = /^Cost: \$/;
// A confirmation answered in aider's input box is logged as a `####` line (seen with multiline mode
// on, 0.84): `Add file to the chat? (Y)es/(N)o/… [Yes]: all`. It answers aider, it prompts nothing.
const CONFIRMATION = /^[^\n]+\? \(Y\)es\/\(N\)o[^\n]*\]: ?\S*$/;

interface AiderSession {
  readonly index: number;
  readonly time: number;
  readonly builder: TranscriptBuilder;
  /** A prompt or a reply was read: a session aider opened and closed unused is not imported. */
  conversed: boolean;
  /** The open turn's prompt went to the model and no reply was read yet. */
  awaitingReply: boolean;
  /** The person pressed ^C while the open turn waited for its reply. */
  interrupted: boolean;
  main: Route | undefined;
  editor: Route | undefined;
  /** The architect's "Edit the files?" was answered yes: the next reply is the editor model's. */
  editorNext: boolean;
}

/**
 * Maps one aider chat history (`.aider.chat.history.md`): every `# aider chat started at` opens a
 * Strand session of its own. A prompt or a reply spans several lines and is written only once the
 * line after it shows it complete (a status line, a prompt, the next session), so importing any
 * prefix of the file yields a prefix of its events; a reply the file ends with waits for that line.
 */
export function mapAider(unit: SourceUnit, peek: SessionPeek): Promise<MappedFile> {
  return mapWholeFile(unit.file, false, foldAider(unit, peek));
}

export function incrementalAider(unit: SourceUnit, peek: SessionPeek): Promise<TranscriptFold> {
  return Promise.resolve(foldAider(unit, peek));
}

function foldAider(unit: SourceUnit, peek: SessionPeek): TranscriptFold {
  const facts = peek.facts as AiderFacts;
  const reports = new FileReports(unit.file);
  const sessions: AiderSession[] = [];
  let current: AiderSession | undefined;
  /** Lines of the prompt being read (held until the next line shows it complete). */
  let prompt: string[] | undefined;
  /** Lines of the reply being read (held likewise). */
  let reply: string[] | undefined;
  /** The line before was a `Tokens:` line: a plain `Cost: …` line continues it. */
  let afterTokens = false;

  const closePrompt = (s: AiderSession): void => {
    const lines = prompt!;
    prompt = undefined;
    const text = lines.join('\n').trimEnd();
    // `user_input` writes `<blank>` for an empty submission.
    if (text.trim() === '' || text === '<blank>') {
      reports.ignore('blank prompt');
      return;
    }
    if (CONFIRMATION.test(text)) {
      s.builder.note(text, s.time);
      return;
    }
    if (s.builder.turnOpen && s.interrupted) s.builder.endTurn('aborted');
    const asking = ASKING.exec(text);
    const command = text.startsWith('/');
    s.builder.prompt(
      text,
      'human',
      s.time,
      command && asking === null ? {} : { titleText: asking?.[2] ?? text },
    );
    s.conversed = true;
    s.awaitingReply = !command || asking !== null;
    s.interrupted = false;
  };

  /** Aider's running cost of the session, where the line states it: the harness's own figure. */
  const reportCost = (s: AiderSession, text: string): void => {
    const usd = sessionCost(text);
    if (usd !== undefined) s.builder.reportedCost(usd, undefined, s.time);
  };

  const closeReply = (s: AiderSession, tokens: Usage | undefined): void => {
    const text = replyText(reply ?? []);
    reply = undefined;
    const route = s.editorNext && s.editor !== undefined ? s.editor : s.main;
    s.editorNext = false;
    if (text.length === 0 && tokens === undefined) return;
    if (text.length > 0) {
      if (route !== undefined) s.builder.assistantRoute(route, s.time);
      s.builder.assistantText(text, s.time);
      if (tokens !== undefined) s.builder.assistantUsage(tokens, 'add');
      s.builder.flushAssistant();
      s.conversed = true;
    } else s.builder.usageRecord(tokens!, s.time);
    s.awaitingReply = false;
  };

  const status = (s: AiderSession, text: string): void => {
    if (text === '') return;
    const tokens = tokensUsage(text);
    if (tokens !== undefined) {
      closeReply(s, tokens);
      reportCost(s, text);
      afterTokens = true;
      return;
    }
    if (INTERRUPT.test(text)) {
      if (s.awaitingReply) s.interrupted = true;
      reports.ignore('interrupt');
      return;
    }
    const model = modelLine(text);
    if (model !== undefined) {
      const route = { provider: providerOf(model.model), model: model.model };
      if (model.role === 'main') s.main = route;
      else s.editor = route;
    }
    if (s.awaitingReply && REQUEST_ERROR.test(text)) s.builder.turnError(text);
    if (EDIT_CONFIRMED.test(text)) s.editorNext = true;
    s.builder.note(text, s.time);
  };

  const endSession = (s: AiderSession): void => {
    if (prompt !== undefined) closePrompt(s);
    if (reply !== undefined) closeReply(s, undefined);
    // The next session started: this aider process is gone, and its last turn with it.
    if (s.builder.turnOpen) s.builder.endTurn(s.interrupted ? 'aborted' : 'auto');
  };

  const feed = (line: SourceLine): void => {
    // A last line without its newline may still grow: it is read once aider finishes it.
    if (!line.terminated) return;
    const c = classifyLine(line.text);
    const wasAfterTokens = afterTokens;
    afterTokens = false;
    if (c.kind === 'start') {
      if (current !== undefined) endSession(current);
      if (c.time === undefined)
        reports.skipRecord(line.line, `session start without a readable time: ${c.text}`);
      current = {
        index: sessions.length,
        time: c.time ?? current?.time ?? 0,
        builder: new TranscriptBuilder(),
        conversed: false,
        awaitingReply: false,
        interrupted: false,
        // A new aider process announces its own model; until it does, none is known.
        main: undefined,
        editor: undefined,
        editorNext: false,
      };
      sessions.push(current);
      return;
    }
    const s = current;
    if (s === undefined) {
      if (c.kind !== 'blank') reports.unknown(line.line, 'line before the first "# aider chat started at"');
      return;
    }
    // Aider ends every line of its own (prompts, status) with two spaces; a Markdown heading or
    // quote the model wrote does not, so it stays reply text (a `Tokens:` line is known by its
    // text too: with both cache counts its `Cost:` goes on the next line and the mark with it).
    const own =
      c.kind === 'prompt' || c.kind === 'status' ? c.marked || c.text.startsWith('Tokens: ') : false;
    if (reply !== undefined) {
      if (c.kind === 'prompt' && own) {
        closeReply(s, undefined);
        prompt = [c.text];
      } else if (c.kind === 'status' && own) {
        if (tokensUsage(c.text) === undefined) closeReply(s, undefined);
        status(s, c.text);
      } else reply.push(c.kind === 'blank' ? '' : line.text);
      return;
    }
    if (prompt !== undefined) {
      if (c.kind === 'prompt' && own) {
        prompt.push(c.text);
        return;
      }
      closePrompt(s);
    }
    if (c.kind === 'prompt' && own) prompt = [c.text];
    else if (c.kind === 'status' && own) status(s, c.text);
    else if (c.kind !== 'blank') {
      // Both cache counts make aider put `Cost: …` on a line of its own, without the `> `.
      if (wasAfterTokens && COST_CONTINUATION.test(line.text)) reportCost(s, line.text);
      else reply = [line.text];
    }
  };

  const result = (end: LineReadEnd): MappedFile => {
    const plans = sessions.filter((s) => s.conversed).map((s) => plan(facts, s));
    if (plans.length === 0)
      return {
        kind: 'empty',
        reason: 'no prompt or reply in any session (aider started and quit)',
        reports,
        hash: end.hash,
      };
    return { kind: 'sessions', plans, reports, hash: end.hash };
  };
  return { feed, result: (end) => Promise.resolve(result(end)) };
}

function plan(facts: AiderFacts, s: AiderSession): SessionPlan {
  return {
    header: {
      id: aiderId(facts.key, s.index),
      createdAt: s.time,
      cwd: facts.cwd,
      source: { harness: 'aider', sourceId: `${facts.key}#${s.index}` },
    },
    events: s.builder.events,
    attachments: new Map(),
  };
}
