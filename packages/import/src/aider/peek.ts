import { createHash } from 'node:crypto';
import path from 'node:path';
import { SessionId } from '@strand/session';
import type { Peek, SourceUnit } from '../run/harness-importer.js';
import { PEEK_CHUNK_BYTES, SourceLineReader } from '../source/line-reader.js';
import { classifyLine } from './history-lines.js';

/** What names the sessions of one history file. */
export interface AiderFacts {
  /** 16 hex of the SHA-1 of the file's absolute path: the file's identity. */
  readonly key: string;
  /** The project the history belongs to: aider writes it at the git root (the folder it is in). */
  readonly cwd: string;
}

/**
 * The id of the `index`-th session (0-based, in file order) of a history file. Aider only ever
 * appends to its history, so a growing file only extends its last session or adds new ones: the
 * position of a session never changes, and neither does its id.
 */
export const aiderId = (key: string, index: number): SessionId => SessionId(`aider-${key}-${index}`);

export function aiderFacts(file: string): AiderFacts {
  const absolute = path.resolve(file);
  return {
    key: createHash('sha1').update(absolute).digest('hex').slice(0, 16),
    cwd: path.dirname(absolute),
  };
}

// Lines read for a session start before a file is taken for something else: a history opens with
// one, but a tool may have written a few lines ahead of it (they are reported when mapped).
const PEEK_LINES = 64;

/** Reads up to the first session start (`# aider chat started at …`), within the first lines. */
export async function peekAider(unit: SourceUnit): Promise<Peek> {
  const reader = new SourceLineReader(unit.file, false, PEEK_CHUNK_BYTES);
  let seen = 0;
  for await (const line of reader.lines()) {
    const kind = classifyLine(line.text).kind;
    if (kind === 'blank') continue;
    if (kind !== 'start') {
      if (++seen < PEEK_LINES) continue;
      break;
    }
    const facts = aiderFacts(unit.file);
    return { kind: 'session', primaryId: aiderId(facts.key, 0), rank: 0, depth: 0, facts };
  }
  return seen === 0
    ? { kind: 'skip', reason: 'empty file' }
    : { kind: 'skip', reason: 'no "# aider chat started at" line at its start (not an aider chat history)' };
}
