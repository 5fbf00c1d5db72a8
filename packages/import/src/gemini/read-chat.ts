import { promises as fsp } from 'node:fs';
import type { FileReports } from '../mapping/file-reports.js';
import { hashBytes } from '../source/file-hash.js';
import { SourceLineReader } from '../source/line-reader.js';
import { isRecord } from '../source/json-record.js';
import { ChatFolder, foldWholeJson, type FoldedChat } from './fold-chat.js';

export type ReadChat =
  | { readonly kind: 'ok'; readonly folded: FoldedChat; readonly hash: string }
  | { readonly kind: 'failed'; readonly reason: string };

/** Reads and folds one chat file, whole-JSON or JSONL, as gemini-cli would load it. */
export async function readChat(file: string, reports: FileReports): Promise<ReadChat> {
  if (file.endsWith('.jsonl')) {
    const folder = new ChatFolder(reports);
    const reader = new SourceLineReader(file, false);
    let first = true;
    for await (const line of reader.lines()) {
      folder.line(line, first);
      if (line.text.trim().length > 0) first = false;
    }
    return { kind: 'ok', folded: folder.result(), hash: reader.end!.hash };
  }
  const bytes = await fsp.readFile(file);
  let raw: unknown;
  try {
    raw = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    // One document rewritten on every update: a crash mid-write leaves it unparseable as a whole.
    return {
      kind: 'failed',
      reason: `whole-JSON chat does not parse (truncated by a crash?): ${(error as Error).message}`,
    };
  }
  if (!isRecord(raw)) return { kind: 'failed', reason: 'whole-JSON chat is not an object' };
  return { kind: 'ok', folded: foldWholeJson(raw, reports), hash: hashBytes(bytes) };
}
