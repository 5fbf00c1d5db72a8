import { fileURLToPath } from 'node:url';
import { SessionId, defined } from '@strand/session';
import { FileReports } from '../mapping/file-reports.js';
import type { MappedFile, SessionPlan } from '../mapping/session-plan.js';
import { TranscriptBuilder } from '../mapping/transcript-builder.js';
import type { SourceUnit } from '../run/harness-importer.js';
import { hashFile } from '../source/file-hash.js';
import { isRecord, str, type JsonRecord } from '../source/json-record.js';
import { CursorBubbles, msOf } from './bubbles.js';
import { readCursorStore, type CursorComposerRow, type CursorSnapshot } from './store.js';

export const cursorId = (composerId: string): SessionId => SessionId(`cursor-${composerId}`);

/**
 * The newest `composerData` `_v` this importer was checked against (the sources in
 * docs/transcript-formats.md saw 3 to 10). A newer one is still read, with a note.
 */
export const KNOWN_COMPOSER_VERSION = 10;

/**
 * Cursor's `state.vscdb`: every composer (chat) with a conversation is a plan. One unit for the
 * whole database, as goose's `sessions.db` (one snapshot, one failure, change markers of the
 * file and its WAL).
 */
export async function mapCursor(unit: SourceUnit): Promise<MappedFile> {
  const reports = new FileReports(unit.file);
  // The hash first: a write between the hash and the read only makes the next run look again.
  const hash = await hashFile(unit.file);
  const read = readCursorStore(unit.file);
  if (read.kind === 'unreadable') return { kind: 'failed', reason: read.reason, reports };
  if (read.kind === 'foreign') return { kind: 'empty', reason: read.reason, reports, hash };
  const plans = mapSnapshot(read.snapshot, reports);
  if (plans.length === 0) return { kind: 'empty', reason: 'no chat with a conversation', reports, hash };
  return { kind: 'sessions', plans, reports, hash };
}

export function mapSnapshot(snapshot: CursorSnapshot, reports: FileReports): SessionPlan[] {
  const plans: SessionPlan[] = [];
  let newer = 0;
  for (const row of snapshot.composers) {
    const composer = parseJson(row.value);
    if (!isRecord(composer)) {
      reports.skipRecord(null, `composer ${row.id}: malformed composerData`);
      continue;
    }
    if (typeof composer._v === 'number' && composer._v > KNOWN_COMPOSER_VERSION)
      newer = Math.max(newer, composer._v);
    const plan = mapComposer(row, composer, snapshot.bubbles.get(row.id), reports);
    if (plan !== undefined) plans.push(plan);
  }
  if (newer > 0)
    reports.note(
      null,
      `composerData version ${newer} is newer than the ${KNOWN_COMPOSER_VERSION} this importer knows; read by its fields`,
    );
  return plans;
}

/** A composer's conversation in order: `[bubbleId, bubble]`, or why it has none to read. */
type Conversation =
  | { readonly kind: 'bubbles'; readonly bubbles: readonly (readonly [string, JsonRecord])[] }
  | { readonly kind: 'unknown' };

function mapComposer(
  row: CursorComposerRow,
  composer: JsonRecord,
  stored: ReadonlyMap<string, string> | undefined,
  reports: FileReports,
): SessionPlan | undefined {
  const conversation = conversationOf(row.id, composer, stored, reports);
  if (conversation.kind === 'unknown') {
    reports.unknown(null, 'composerData shape (no fullConversationHeadersOnly or conversation)');
    return undefined;
  }
  const createdAt = msOf(composer.createdAt);
  const name = str(composer.name)?.trim();
  const builder = new TranscriptBuilder();
  const mapper = new CursorBubbles(builder, reports, createdAt ?? 0, name === '' ? undefined : name);
  for (const [bubbleId, bubble] of conversation.bubbles) mapper.bubble(bubble, bubbleId);
  builder.finish();
  if (!builder.hasConversation) return undefined;
  const first = conversation.bubbles[0]?.[1];
  const cwd = first === undefined ? undefined : workspaceOf(first);
  return {
    header: {
      id: cursorId(row.id),
      createdAt: createdAt ?? builder.events[0]?.time ?? 0,
      ...defined({ cwd }),
      source: { harness: 'cursor', sourceId: row.id },
    },
    events: builder.events,
    attachments: new Map(),
  };
}

/**
 * The bubbles of a composer in conversation order. Modern Cursor lists them in
 * `fullConversationHeadersOnly` (`{bubbleId, type}`) and keeps each under `bubbleId:<composer>:<bubble>`;
 * older Cursor kept them inline in `conversation`. The read stops, to go on next time, at the
 * first bubble Cursor is still writing (`generatingBubbleIds`: it rewrites a streaming bubble in
 * place) and at a header whose bubble is not stored (yet): mapping past either would put later
 * bubbles before it, and the log only appends.
 */
function conversationOf(
  composerId: string,
  composer: JsonRecord,
  stored: ReadonlyMap<string, string> | undefined,
  reports: FileReports,
): Conversation {
  const generating = new Set(
    Array.isArray(composer.generatingBubbleIds)
      ? composer.generatingBubbleIds.filter((id) => typeof id === 'string')
      : [],
  );
  const headers = Array.isArray(composer.fullConversationHeadersOnly)
    ? composer.fullConversationHeadersOnly
    : Array.isArray(composer.conversation)
      ? composer.conversation
      : undefined;
  if (headers === undefined) return { kind: 'unknown' };
  const inline = !Array.isArray(composer.fullConversationHeadersOnly);
  const bubbles: (readonly [string, JsonRecord])[] = [];
  for (const header of headers) {
    const id = isRecord(header) ? str(header.bubbleId) : undefined;
    if (id === undefined) {
      reports.skipRecord(null, `composer ${composerId}: a conversation header without a bubbleId`);
      continue;
    }
    if (generating.has(id)) break;
    if (inline) {
      bubbles.push([id, header as JsonRecord]);
      continue;
    }
    const value = stored?.get(id);
    if (value === undefined) {
      reports.note(null, `composer ${composerId}: bubble ${id} is not stored (yet); read up to it`);
      break;
    }
    const bubble = parseJson(value);
    if (!isRecord(bubble)) {
      reports.skipRecord(null, `composer ${composerId} bubble ${id}: malformed bubble`);
      continue;
    }
    bubbles.push([id, bubble]);
  }
  return { kind: 'bubbles', bubbles };
}

/** The folder of the chat's first bubble (`workspaceUris[0]`, a `file://` URI), as a path. */
function workspaceOf(bubble: JsonRecord): string | undefined {
  const uri = Array.isArray(bubble.workspaceUris) ? str(bubble.workspaceUris[0]) : undefined;
  if (uri === undefined || !uri.startsWith('file://')) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    // A URI of another host or an odd form: no cwd rather than a wrong one.
    return undefined;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
