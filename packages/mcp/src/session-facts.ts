import { STRAND_HARNESS } from '@strand/session';
import { StrandRpcError, type SessionListRow } from '@strand/protocol';

/** The harness a session came from (`strand`: Strand's own): an open vocabulary of harness names. */
export type SessionSource = string;

/**
 * The harness a session came from: its header's `source`, written by the importer. A session
 * imported before headers carried it is known by the deterministic id prefix `strand import`
 * gives each harness (`claude-…`, `codex-…`, `gemini-…`, `qwen-…`); every other session is Strand's own.
 */
export function sourceOf(id: string, source?: { readonly harness: SessionSource }): SessionSource {
  if (source !== undefined) return source.harness;
  if (id.startsWith('claude-')) return 'claude-code';
  if (id.startsWith('codex-')) return 'codex';
  if (id.startsWith('gemini-')) return 'gemini';
  if (id.startsWith('qwen-')) return 'qwen';
  return STRAND_HARNESS;
}

/** The list hint `title`: a string, `null` (computed: none) or undefined (unknown). */
export function titleOf(row: Pick<SessionListRow, 'hints'>): string | null | undefined {
  const title = row.hints?.values.title;
  return typeof title === 'string' || title === null ? title : undefined;
}

/**
 * A session belongs to `project` when its working folder is that path or its last folder name
 * is that name: agents know a project by either.
 */
export function inProject(cwd: string | undefined, project: string): boolean {
  if (cwd === undefined) return false;
  const folder = trimFolder(cwd);
  const wanted = trimFolder(project);
  return folder === wanted || folder.split(/[/\\]/).at(-1) === wanted;
}

/** A folder path without its trailing separators (`/home/dev/svc/` is `/home/dev/svc`). */
export function trimFolder(folder: string): string {
  return folder.replace(/[/\\]+$/, '');
}

/**
 * A project given as a path (it has a separator before its end), which only a working folder
 * equal to it matches — the host can narrow by it; a bare folder name it cannot.
 */
export function isFolderPath(project: string): boolean {
  return /[/\\]/.test(trimFolder(project));
}

/**
 * What `session.list` narrows by for `project`: a path is the exact `cwd` (trailing separators
 * dropped), a folder name the `projectName` (the `cwd`'s last folder name, matched by the host's
 * list index in its query). A project that is only separators (`/`) names a root: its `cwd`.
 */
export function projectListFilter(project: string | undefined): { cwd?: string; projectName?: string } {
  if (project === undefined) return {};
  const folder = trimFolder(project);
  if (folder === '') return { cwd: project };
  return isFolderPath(project) ? { cwd: folder } : { projectName: folder };
}

export interface SessionFilter {
  readonly project?: string | undefined;
  readonly source?: SessionSource | undefined;
}

export function matches(row: Pick<SessionListRow, 'id' | 'header'>, filter: SessionFilter): boolean {
  if (filter.project !== undefined && !inProject(row.header.cwd, filter.project)) return false;
  return filter.source === undefined || sourceOf(row.id, row.header.source) === filter.source;
}

/** One line about a session: id, creation, title, project, where it came from. */
export function describeRow(row: SessionListRow): string {
  const h = row.header;
  const title = titleOf(row);
  const parts = [
    row.id,
    new Date(h.createdAt).toISOString().slice(0, 16).replace('T', ' '),
    title === undefined ? '(title unknown)' : title === null ? '(untitled)' : JSON.stringify(title),
    `project=${h.cwd === undefined ? '?' : JSON.stringify(h.cwd)}`,
    `from=${origin(row)}`,
  ];
  if (row.busy) parts.push('running');
  else if (row.live) parts.push('live');
  return parts.join('  ');
}

/** Where a session came from: its harness, and whether it is a subagent or a fork. */
export function origin(row: Pick<SessionListRow, 'id' | 'header'>): string {
  return originOf(sourceOf(row.id, row.header.source), row.header);
}

/** The header fields that say whose subagent or fork a session is (a header's, or a search result's). */
export interface Lineage {
  readonly origin?: string | undefined;
  readonly parentSession?: string | undefined;
  readonly forkedFrom?: string | undefined;
}

/** `harness`, then `(subagent of …)` or `(fork of …)` when the lineage says so. */
export function originOf(harness: SessionSource, lineage: Lineage): string {
  const via =
    lineage.origin === 'subagent'
      ? ` (subagent of ${String(lineage.parentSession)})`
      : lineage.forkedFrom !== undefined
        ? ` (fork of ${lineage.forkedFrom})`
        : '';
  return `${harness}${via}`;
}

/**
 * The host refused the call's params: an older host, whose strict params lack a field this build
 * sends (`projectName` before it could match folder names) — `strand mcp --url` may talk to a host
 * of another version.
 */
export const refusedParams = (error: unknown): boolean =>
  error instanceof StrandRpcError && error.code === 'RPC_INVALID_PARAMS';
