import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { SessionId } from '@strand/session';
import type { Peek, SourceUnit } from '../run/harness-importer.js';
import { SourceLineReader } from '../source/line-reader.js';
import { isRecord, parseLine, str, type JsonRecord } from '../source/json-record.js';

export interface GeminiFacts {
  readonly sessionId: string;
  readonly jsonl: boolean;
  /** For a subagent chat (`kind: "subagent"`, stored under `chats/<parent session id>/`). */
  readonly parentSessionId?: string;
}

// The a2a-server variant writes this literal id into every file; such files are told apart by name.
const SHARED_ID = 'a2a-server';

export function geminiId(facts: Pick<GeminiFacts, 'sessionId'>, file: string): SessionId {
  if (facts.sessionId === SHARED_ID)
    return SessionId(`gemini-${SHARED_ID}-${path.basename(file).replace(/\.jsonl?$/, '')}`);
  return SessionId(`gemini-${facts.sessionId}`);
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
    for await (const line of new SourceLineReader(unit.file, false).lines()) {
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
  return sessionPeek(
    { sessionId, jsonl, ...(parent === undefined || parent === 'chats' ? {} : { parentSessionId: parent }) },
    unit,
  );
}

function sessionPeek(facts: GeminiFacts, unit: SourceUnit): Peek {
  return {
    kind: 'session',
    primaryId: geminiId(facts, unit.file),
    rank: facts.jsonl ? 1 : 0,
    depth: facts.parentSessionId === undefined ? 0 : 1,
    facts,
  };
}

function sessionIdIn(text: string): string | undefined {
  return /"sessionId"\s*:\s*"([^"]+)"/.exec(text)?.[1];
}
