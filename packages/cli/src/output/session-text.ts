import type { FollowSnapshot, SessionListRow, SubagentListEntry, WireEvent } from '@strand/protocol';
import { eventText } from '../output.js';
import { localDateTime } from './local-time.js';
import { projectionText } from './projection-lines.js';
import type { Style } from './style.js';
import { renderTable } from './table.js';

/** Ids past this many cells are cut with `…` in the table (`--json` has them whole). */
export const ID_COLUMN_MAX = 36;

/** An imported child may name no parent (its parent's log was not imported): say so, not "undefined". */
function parentName(parent: string | undefined): string {
  return parent ?? 'a session not in this corpus';
}

/** `strand list` rows: id, created (local), state, title hint. */
export function sessionTable(rows: readonly SessionListRow[], style: Style, width?: number): string[] {
  const cells = rows.map((row) => {
    const state = row.ownedElsewhere === true ? 'elsewhere' : row.busy ? 'running' : row.live ? 'live' : '';
    const parent =
      row.header.origin === 'subagent' ? ` (child of ${parentName(row.header.parentSession)})` : '';
    return [
      row.id,
      localDateTime(row.header.createdAt),
      state,
      projectionText('title', row.hints?.values.title) + parent,
    ];
  });
  const lines = renderTable(
    [['ID', 'CREATED', 'STATE', 'TITLE'], ...cells],
    [{ max: ID_COLUMN_MAX }, {}, {}, {}],
    width,
  );
  return lines.map((line, i) => (i === 0 ? style.bold(line) : line));
}

/**
 * What the session text shows of a session: a follow snapshot (`strand show`), or the generation
 * a `SessionFollower` shows with the projection values of its store (`strand follow`).
 */
export type SnapshotText = Pick<
  FollowSnapshot,
  'header' | 'inheritedEventCount' | 'cursor' | 'live' | 'busy' | 'events'
> & { readonly baseline: { readonly values: Readonly<Record<string, unknown>> } };

/** `strand show` / the start of `strand follow`: header, every projection, the last events. */
export function snapshotLines(snapshot: SnapshotText, style: Style, width?: number): string[] {
  const h = snapshot.header;
  const out = [
    `${style.bold(h.id)}  created ${localDateTime(h.createdAt)}${h.cwd === undefined ? '' : `  in ${h.cwd}`}`,
  ];
  if (h.origin === 'subagent')
    out.push(`  subagent of ${String(h.parentSession)} (depth ${String(h.delegationDepth)})`);
  if (h.isSeeded)
    out.push(
      `  seeded: ${snapshot.inheritedEventCount} inherited events${h.forkedFrom === undefined ? '' : ` from ${h.forkedFrom}`}`,
    );
  out.push(`  ${snapshot.cursor} events${snapshot.live ? ', live' : ''}${snapshot.busy ? ', running' : ''}`);
  out.push(style.bold('Projections'));
  out.push(
    ...renderTable(
      Object.entries(snapshot.baseline.values).map(([key, value]) => ['', key, projectionText(key, value)]),
      [{}, {}, {}],
      width,
    ),
  );
  out.push(style.bold(`Last ${snapshot.events.length} events`));
  out.push(...eventLines(snapshot.events, style, width));
  return out;
}

/** Events as aligned rows: seq, local time, type, a one-line summary. */
export function eventLines(events: readonly WireEvent[], style: Style, width?: number): string[] {
  return renderTable(
    events.map((e) => [String(e.seq), localDateTime(e.time, true), style.cyan(e.type), eventText(e)]),
    [{ align: 'right', min: 6 }, { min: 19 }, { min: 20 }, {}],
    width,
  );
}

/** A projection that changed during `follow`. */
export function projectionChangeLine(key: string, value: unknown, style: Style): string {
  return `${style.dim('projection')}  ${key} = ${projectionText(key, value)}`;
}

type AgentRow = SubagentListEntry & { readonly depth?: number };

const DIAGNOSTIC: Readonly<Record<string, string>> = {
  corrupt: 'corrupt: its subagent descriptor is missing or unreadable',
  unsupported: 'unsupported: written by a newer version',
  unavailable: 'unavailable: could not be read',
};

/** `strand agents` rows: id (indented by depth in a tree), mode, label, status. */
export function agentTable(rows: readonly AgentRow[], style: Style, width?: number): string[] {
  const cells = rows.map((row) => {
    const id = `${'  '.repeat(Math.max(0, (row.depth ?? 1) - 1))}${row.id}`;
    if (row.kind === 'diagnostic') return [id, '—', '', style.red(DIAGNOSTIC[row.reason] ?? row.reason)];
    const status = `${row.activity}${row.hasChildren ? ', has children' : ''}`;
    return [id, row.mode, row.label ?? '', status];
  });
  const lines = renderTable(
    [['ID', 'MODE', 'LABEL', 'STATUS'], ...cells],
    [{ max: ID_COLUMN_MAX }, {}, { max: 32 }, {}],
    width,
  );
  return lines.map((line, i) => (i === 0 ? style.bold(line) : line));
}
