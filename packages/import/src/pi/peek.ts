import { SessionId } from '@strand/session';
import type { Peek, SourceUnit } from '../run/harness-importer.js';
import { PEEK_CHUNK_BYTES, SourceLineReader } from '../source/line-reader.js';
import { parseLine, str, timeOf } from '../source/json-record.js';

export interface PiFacts {
  readonly sessionId: string;
  /** 1 (no entry ids), 2 (a tree of entries), 3 (`hookMessage` renamed `custom`); absent means 1. */
  readonly version: number;
  readonly cwd: string | undefined;
  /** The header's `timestamp`: when the session was created. */
  readonly createdAt: number | undefined;
  /** The path of the session this one was forked or cloned from (`/fork`, `/clone`, `--fork`). */
  readonly parentSession: string | undefined;
}

export const piId = (sessionId: string): SessionId => SessionId(`pi-${sessionId}`);

/**
 * A pi session file starts with its header, `{type: "session", id, version?, timestamp, cwd}` —
 * the same test pi's own loader applies (`loadEntriesFromFile`: a first line that is not such a
 * header makes the file no session).
 */
export async function peekPi(unit: SourceUnit): Promise<Peek> {
  for await (const line of new SourceLineReader(unit.file, false, PEEK_CHUNK_BYTES).lines()) {
    const parsed = parseLine(line);
    if (parsed.kind === 'blank') continue;
    if (parsed.kind === 'bad')
      return { kind: 'skip', reason: `not a pi session file (${parsed.reason})`, line: line.line };
    const head = parsed.record;
    const sessionId = str(head.id);
    if (head.type !== 'session' || sessionId === undefined)
      return { kind: 'skip', reason: 'not a pi session file (no session header)', line: line.line };
    const facts: PiFacts = {
      sessionId,
      version: typeof head.version === 'number' ? head.version : 1,
      cwd: str(head.cwd) || undefined,
      createdAt: timeOf(head.timestamp),
      parentSession: str(head.parentSession),
    };
    return { kind: 'session', primaryId: piId(sessionId), rank: 0, depth: 0, facts };
  }
  return { kind: 'skip', reason: 'empty file (pi writes a session once its first answer arrives)' };
}
