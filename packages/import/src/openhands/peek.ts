import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { SessionId } from '@strand/session';
import type { Peek, SourceUnit } from '../run/harness-importer.js';
import { isRecord } from '../source/json-record.js';

export interface OpenhandsFacts {
  /** The conversation id: the folder above `events/` (events do not name their conversation). */
  readonly conversationId: string;
}

export const openhandsId = (conversationId: string): SessionId => SessionId(`openhands-${conversationId}`);

/** The conversation's first event file: an event of OpenHands's serialization (`event_to_dict`). */
export async function peekOpenhands(unit: SourceUnit): Promise<Peek> {
  let value: unknown;
  try {
    value = JSON.parse(await fsp.readFile(unit.file, 'utf8'));
  } catch (error) {
    return { kind: 'skip', reason: `not an OpenHands event (${(error as Error).message})` };
  }
  if (
    !isRecord(value) ||
    typeof value.source !== 'string' ||
    (typeof value.action !== 'string' && typeof value.observation !== 'string')
  )
    return { kind: 'skip', reason: 'not an OpenHands event (no source and action or observation)' };
  const conversationId = path.basename(path.dirname(path.dirname(unit.file)));
  const facts: OpenhandsFacts = { conversationId };
  return { kind: 'session', primaryId: openhandsId(conversationId), rank: 0, depth: 0, facts };
}
