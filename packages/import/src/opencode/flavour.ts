import { SessionId } from '@strand/session';

/**
 * What differs between opencode and the harnesses that forked it and kept its store (Kilo Code's
 * CLI: `kilo.db`, the same `session`/`message`/`part` tables and JSON `data` columns). Everything
 * else — the read-only snapshot over the WAL, the mapping, the prefix law — is shared, so a fork
 * is a flavour of this importer, not a copy of it.
 */
export interface StoreFlavour {
  /** The harness name in headers (`source.harness`) and the prefix of its session ids. */
  readonly harness: 'opencode' | 'kilo';
  /** How reasons name the database: "not <an opencode> database". */
  readonly article: string;
  /** Folders beside the database that hold no sessions (not entered). */
  readonly notSessions: ReadonlySet<string>;
}

export const OPENCODE: StoreFlavour = {
  harness: 'opencode',
  article: 'an opencode',
  // Logs, cloned references, file snapshots (a git store of the person's files), tool output
  // spills, and the ≤ 1.0 JSON `storage/` (not read).
  notSessions: new Set(['log', 'repos', 'snapshot', 'tool-output', 'bin', 'storage', 'plans']),
};

/** A session's Strand id: the harness name, then its own id (`opencode-ses_…`, `kilo-ses_…`). */
export const storeSessionId = (flavour: StoreFlavour, sessionId: string): SessionId =>
  SessionId(`${flavour.harness}-${sessionId}`);
