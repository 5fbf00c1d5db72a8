import { harnessLabel, readCoreEvent, sessionHarness, type SessionEvent } from '@strand/session';
import { lastSeqOf, turnRunning, type ExportDocument } from './document.js';
import { utcMinute } from './markdown-text.js';

/** One fact of the table every readable export opens with; `code`: a name to show as code. */
export interface SessionFact {
  readonly label: string;
  readonly value: string;
  readonly code: boolean;
}

/** The title an export shows: the `title` unit's value, else the session's id. */
export function exportTitle(document: ExportDocument): string {
  return (document.title?.trim() || `Session ${document.header.id}`).replace(/\s+/g, ' ');
}

/**
 * The facts about the session a reader of the file needs first, in one order for every format:
 * id, harness, project, start, model, where it came from, and the cut exported (saying so when a
 * turn was still being written).
 */
export function sessionFacts(document: ExportDocument): SessionFact[] {
  const { header } = document;
  const facts: SessionFact[] = [
    { label: 'Session', value: header.id, code: true },
    { label: 'Harness', value: harnessLabel(sessionHarness(header)), code: false },
  ];
  if (header.cwd !== undefined) facts.push({ label: 'Project', value: header.cwd, code: true });
  facts.push({ label: 'Started', value: utcMinute(header.createdAt), code: false });
  const model = lastModel(document.events);
  if (model !== undefined) facts.push({ label: 'Model', value: model, code: true });
  if (header.forkedFrom !== undefined)
    facts.push({ label: 'Forked from', value: header.forkedFrom, code: true });
  if (header.parentSession !== undefined)
    facts.push({ label: 'Subagent of', value: header.parentSession, code: true });
  const last = lastSeqOf(document);
  facts.push({
    label: 'Events',
    value:
      last < 0
        ? 'none'
        : `0–${last}${turnRunning(document) ? ' (a turn was running: this is what was durable when exported)' : ''}`,
    code: false,
  });
  return facts;
}

function lastModel(events: readonly SessionEvent[]): string | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const core = readCoreEvent(events[i]!);
    if (core?.type === 'model/selection' || core?.type === 'request/header')
      return `${core.data.provider}/${core.data.model}`;
  }
  return undefined;
}
