import path from 'node:path';
import { SessionId } from '@strand/session';
import { AttachmentSink } from '../mapping/attachments.js';
import { FileReports } from '../mapping/file-reports.js';
import type { MappedFile, SessionPlan } from '../mapping/session-plan.js';
import { TranscriptBuilder, type Route } from '../mapping/transcript-builder.js';
import { mapWholeFile, type TranscriptFold } from '../mapping/transcript-fold.js';
import type { SessionPeek, SourceUnit } from '../run/harness-importer.js';
import { hashFile } from '../source/file-hash.js';
import { isRecord, parseLine, str, type JsonRecord } from '../source/json-record.js';
import type { LineReadEnd, SourceLine } from '../source/line-reader.js';
import { GooseMessages } from './messages.js';
import { KNOWN_SCHEMA_VERSION, readGooseStore, type GooseSessionRow, type GooseSnapshot } from './store.js';

export const gooseId = (sessionId: string): SessionId => SessionId(`goose-${sessionId}`);

/** What the peek found: the SQLite store (many sessions) or one legacy JSONL session. */
export type GooseFacts = { readonly kind: 'db' } | { readonly kind: 'jsonl'; readonly sessionId: string };

// Names goose gives a session before it (or the person) names it: the CLI's, the desktop app's,
// an ACP client's (migration 9 of `migrations.rs` tells ACP sessions by the last).
const DEFAULT_NAMES = new Set(['', 'CLI Session', 'New Chat', 'New session', 'ACP Session']);

export function mapGoose(unit: SourceUnit, peek: SessionPeek): Promise<MappedFile> {
  const facts = peek.facts as GooseFacts;
  if (facts.kind === 'db') return mapGooseDb(unit);
  return mapWholeFile(unit.file, false, foldGooseJsonl(unit, peek));
}

/** The fold live ingest feeds a legacy JSONL's lines to; a database has none (read whole). */
export function incrementalGoose(unit: SourceUnit, peek: SessionPeek): Promise<TranscriptFold | undefined> {
  const facts = peek.facts as GooseFacts;
  return Promise.resolve(facts.kind === 'jsonl' ? foldGooseJsonl(unit, peek) : undefined);
}

/**
 * goose's `sessions.db`: every session with a conversation is a plan. One unit for the whole
 * database, as opencode's (see the README: change markers, one failure, one snapshot).
 */
async function mapGooseDb(unit: SourceUnit): Promise<MappedFile> {
  const reports = new FileReports(unit.file);
  // The hash first: a write between the hash and the read only makes the next run look again.
  const hash = await hashFile(unit.file);
  const read = readGooseStore(unit.file);
  if (read.kind === 'unreadable') return { kind: 'failed', reason: read.reason, reports };
  if (read.kind === 'foreign') return { kind: 'empty', reason: read.reason, reports, hash };
  if (read.snapshot.schemaVersion > KNOWN_SCHEMA_VERSION)
    reports.note(
      null,
      `schema version ${read.snapshot.schemaVersion} is newer than the ${KNOWN_SCHEMA_VERSION} this importer knows; read by its columns`,
    );
  const plans = mapSnapshot(read.snapshot, reports);
  if (plans.length === 0) return { kind: 'empty', reason: 'no session with a conversation', reports, hash };
  return { kind: 'sessions', plans, reports, hash };
}

export function mapSnapshot(snapshot: GooseSnapshot, reports: FileReports): SessionPlan[] {
  const plans: SessionPlan[] = [];
  for (const session of snapshot.sessions) {
    // goose's own internal sessions (never listed by it): nothing the person had.
    if (session.sessionType === 'hidden') {
      reports.ignore('session hidden');
      continue;
    }
    const builder = new TranscriptBuilder();
    const sink = new AttachmentSink();
    const mapper = new GooseMessages(builder, sink, reports, routeOf(session), titleOf(session));
    for (const row of snapshot.messages.get(session.id) ?? []) {
      const where = `session ${session.id} message ${row.rowId}`;
      const content = parseJson(row.content);
      if (content === undefined) {
        reports.skipRecord(null, `${where}: malformed content_json`);
        continue;
      }
      mapper.message(
        row.role,
        row.created,
        content,
        row.metadata === null ? undefined : parseJson(row.metadata),
        null,
        where,
      );
    }
    builder.finish();
    if (!builder.hasConversation) continue;
    const createdAt = sqliteTime(session.createdAt) ?? builder.events[0]?.time ?? 0;
    plans.push({
      header: {
        id: gooseId(session.id),
        createdAt,
        ...(session.workingDir === '' ? {} : { cwd: session.workingDir }),
        source: { harness: 'goose', sourceId: session.id },
      },
      events: builder.events,
      attachments: sink.items,
    });
  }
  return plans;
}

/**
 * A legacy session file (`sessions/<id>.jsonl`, written by goose before it had the database): a `SessionMetadata` line
 * (`working_dir`, `description`, token totals), then one `Message` per line. goose rewrote the
 * whole file on every save, so the metadata line changes; live ingest sees the head change and
 * reads the file whole, and the messages are the same prefix as before.
 */
export function foldGooseJsonl(unit: SourceUnit, peek: SessionPeek): TranscriptFold {
  const facts = peek.facts as Extract<GooseFacts, { kind: 'jsonl' }>;
  const reports = new FileReports(unit.file);
  const builder = new TranscriptBuilder();
  const sink = new AttachmentSink();
  let mapper: GooseMessages | undefined;
  let cwd: string | undefined;
  let firstTime: number | undefined;

  const feed = (line: SourceLine): Promise<void> => {
    const parsed = parseLine(line);
    if (parsed.kind === 'blank') return Promise.resolve();
    if (parsed.kind === 'bad') {
      reports.skipRecord(line.line, parsed.reason);
      return Promise.resolve();
    }
    const record = parsed.record;
    if (line.line === 1 && isMetadata(record)) {
      cwd = str(record.working_dir);
      const description = str(record.description)?.trim() ?? '';
      mapper = new GooseMessages(
        builder,
        sink,
        reports,
        undefined,
        description === '' ? undefined : description,
      );
      return Promise.resolve();
    }
    // A file without a metadata line (the oldest goose wrote none): messages from the first line.
    mapper ??= new GooseMessages(builder, sink, reports, undefined, undefined);
    if (typeof record.created === 'number') firstTime ??= record.created * 1000;
    mapper.message(
      record.role,
      record.created,
      record.content,
      record.metadata,
      line.line,
      `line ${line.line}`,
    );
    return Promise.resolve();
  };

  const result = (end: LineReadEnd): Promise<MappedFile> => {
    builder.finish();
    if (!builder.hasConversation)
      return Promise.resolve({ kind: 'empty', reason: 'no conversation messages', reports, hash: end.hash });
    const plan: SessionPlan = {
      header: {
        id: peek.primaryId,
        createdAt: firstTime ?? builder.events[0]?.time ?? 0,
        ...(cwd === undefined || cwd === '' ? {} : { cwd }),
        source: { harness: 'goose', sourceId: facts.sessionId },
      },
      events: builder.events,
      attachments: sink.items,
    };
    return Promise.resolve({ kind: 'sessions', plans: [plan], reports, hash: end.hash });
  };
  return { feed, result };
}

/** goose's `SessionMetadata` (its deserializer requires `description` and `message_count`). */
export function isMetadata(record: JsonRecord): boolean {
  return typeof record.description === 'string' && typeof record.message_count === 'number';
}

/** A legacy file's session id: its name (`generate_session_id`: `yyyymmdd_hhmmss`, or a name given). */
export function legacySessionId(file: string): string {
  return path.basename(file, '.jsonl');
}

/** The route of a session's replies: `provider_name` and `model_config_json.model_name` (schema ≥ 6). */
function routeOf(session: GooseSessionRow): Route | undefined {
  if (session.providerName === null || session.modelConfig === null) return undefined;
  const config = parseJson(session.modelConfig);
  const model = isRecord(config) ? str(config.model_name) : undefined;
  return model === undefined ? undefined : { provider: session.providerName, model };
}

function titleOf(session: GooseSessionRow): string | undefined {
  const name = session.name.trim();
  if (!session.userSetName && DEFAULT_NAMES.has(name)) return undefined;
  return name === '' ? undefined : name;
}

/** SQLite's `CURRENT_TIMESTAMP` (`YYYY-MM-DD HH:MM:SS`, UTC) or an RFC 3339 time, as ms. */
export function sqliteTime(value: string): number | undefined {
  const iso = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d+)?$/.test(value)
    ? `${value.replace(' ', 'T')}Z`
    : value;
  const ms = Date.parse(iso);
  return Number.isSafeInteger(ms) ? ms : undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
