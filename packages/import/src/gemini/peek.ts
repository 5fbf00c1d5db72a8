import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { SessionId, defined } from '@strand/session';
import type { Peek, SourceUnit } from '../run/harness-importer.js';
import { PEEK_CHUNK_BYTES, SourceLineReader } from '../source/line-reader.js';
import { isRecord, parseLine, str, type JsonRecord } from '../source/json-record.js';
import { outlineChat } from './chat-outline.js';
import { placeChat, type ChatOutline, type ChatPlace } from './chat-place.js';

export interface GeminiFacts {
  readonly sessionId: string;
  readonly jsonl: boolean;
  /** For a subagent chat (`kind: "subagent"`, stored under `chats/<parent session id>/`). */
  readonly parentSessionId?: string;
  /** Set for a chat other than the session's own that shares its `sessionId` (see `placeChat`). */
  readonly chat?: Extract<ChatPlace, { kind: 'distinct' }>;
}

// The a2a-server variant writes this literal id into every file; such files are told apart by name.
const SHARED_ID = 'a2a-server';

export function geminiId(facts: Pick<GeminiFacts, 'sessionId' | 'chat'>, file: string): SessionId {
  if (facts.sessionId === SHARED_ID)
    return SessionId(`gemini-${SHARED_ID}-${path.basename(file).replace(/\.jsonl?$/, '')}`);
  if (facts.chat !== undefined) return SessionId(`gemini-${facts.sessionId}-${chatKey(facts.chat.key)}`);
  return SessionId(`gemini-${facts.sessionId}`);
}

// Message ids are usually UUIDs; anything longer or stranger is hashed to keep ids short and plain.
function chatKey(messageId: string): string {
  return /^[A-Za-z0-9_-]{1,40}$/.test(messageId)
    ? messageId
    : createHash('sha1').update(messageId).digest('hex').slice(0, 12);
}

/**
 * A chat file is recognised by content: a JSONL file whose metadata line has `sessionId`, or a
 * whole-JSON object with `sessionId` and `messages`. Between two copies of one session (gemini-cli
 * migrates a resumed `.json` chat to `.jsonl`) the JSONL one ranks higher.
 */
export async function peekGemini(unit: SourceUnit): Promise<Peek> {
  const jsonl = unit.file.endsWith('.jsonl');
  let head: JsonRecord | undefined;
  if (jsonl) {
    for await (const line of new SourceLineReader(unit.file, false, PEEK_CHUNK_BYTES).lines()) {
      const parsed = parseLine(line);
      if (parsed.kind === 'blank') continue;
      if (parsed.kind === 'record') head = parsed.record;
      break;
    }
  } else {
    const text = await fsp.readFile(unit.file, 'utf8');
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      // A whole-JSON chat cut by a crash no longer parses; the map step reports it as failed.
      return /"sessionId"/.test(text.slice(0, 4096)) && /"messages"/.test(text)
        ? sessionPeek({ sessionId: sessionIdIn(text) ?? 'unknown', jsonl }, unit)
        : { kind: 'skip', reason: 'not a Gemini chat file (not JSON)' };
    }
    if (Array.isArray(raw))
      return {
        kind: 'skip',
        reason: 'not a Gemini chat file (a JSON array: prompt history or a checkpoint)',
      };
    if (isRecord(raw) && Array.isArray(raw.messages)) head = raw;
  }
  const sessionId = str(head?.sessionId);
  if (head === undefined || sessionId === undefined)
    return { kind: 'skip', reason: 'not a Gemini chat file (no sessionId)' };
  const parent = head.kind === 'subagent' ? path.basename(path.dirname(unit.file)) : undefined;
  const chat = sessionId === SHARED_ID ? undefined : await placeAmongSiblings(unit);
  return sessionPeek(
    {
      sessionId,
      jsonl,
      ...(parent === undefined || parent === 'chats' ? {} : { parentSessionId: parent }),
      ...defined({ chat }),
    },
    unit,
  );
}

/** Reads the file and its same-session siblings (its companions) to tell copies from distinct chats. */
async function placeAmongSiblings(unit: SourceUnit): Promise<GeminiFacts['chat']> {
  if (unit.companions.length === 0) return undefined;
  const self = await outlineChat(unit.file);
  if (self === undefined) return undefined;
  const siblings: ChatOutline[] = [];
  for (const file of unit.companions) {
    const outline = await outlineChat(file);
    if (outline !== undefined) siblings.push(outline);
  }
  const place = placeChat(self, siblings);
  return place.kind === 'distinct' ? place : undefined;
}

function sessionPeek(facts: GeminiFacts, unit: SourceUnit): Peek {
  return {
    kind: 'session',
    primaryId: geminiId(facts, unit.file),
    rank: facts.jsonl ? 1 : 0,
    depth: facts.parentSessionId === undefined && facts.chat?.delegatedBy === undefined ? 0 : 1,
    facts,
  };
}

function sessionIdIn(text: string): string | undefined {
  return /"sessionId"\s*:\s*"([^"]+)"/.exec(text)?.[1];
}
