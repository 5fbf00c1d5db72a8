import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { ImportError } from '../errors.js';
import { isHarness, type Harness } from '../types.js';

export const LEDGER_FILE = 'import-ledger.json';
const LEDGER_VERSION = 1;
/**
 * The mappers' revision. A ledger written under another one is set aside on load, so every file
 * is mapped and compared with its stored session again: a session whose mapping now differs is
 * replaced once (the import's rules), an equal one is left alone. Bump it whenever a mapper
 * writes different events for the same file. 2: usage kinds (fresh input, cache writes and
 * reads, reasoning). 3: Claude Code cost-state as `session/cost`. 4: Claude Code slash commands
 * and their output as `session/command` and `session/command-output` instead of user messages;
 * Gemini nested chats placed by their delegation call's inputs (a call recorded after the chat
 * started makes it a subagent with the agent's prompts).
 */
export const MAPPING_REVISION = 4;

export interface FileStamp {
  readonly size: number;
  readonly mtimeMs: number;
}

export interface CompanionStamp extends FileStamp {
  readonly path: string;
}

/** A write-once folder's stamp (`LedgerEntry.folder`): its files listed, as `size`, and its mtime. */
export interface FolderStamp extends CompanionStamp {
  /**
   * The folder's ctime, kept only where its stat may stand for its listing: taken before the
   * folder was listed, and its last change at least a timestamp granule before the run started
   * (`standsForListing`). A later run whose stat of the folder gives this mtime and ctime lists
   * neither the folder nor its parent.
   */
  readonly ctimeMs?: number;
}

/** What the ledger remembers of one source file after it was imported (or deliberately skipped). */
export interface LedgerEntry extends FileStamp {
  readonly harness: Harness;
  /** Digest of the file's bytes and its companions' bytes (see `unitHash`). */
  readonly hash: string;
  readonly companions: readonly CompanionStamp[];
  /**
   * Set for a unit whose write-once folder was read whole (`SourceUnit.writeOnceFolder`): the
   * folder's stamp (its files listed, as `size`, and its mtime), and `companions` then holds only
   * the companions outside the folder — a re-import compares these and stats none of the folder's
   * files (`size` and `mtimeMs` of the unit's own file are kept, not compared).
   */
  readonly folder?: FolderStamp;
  /** The session the file is a copy of, and its rank, for telling copies apart in later runs. */
  readonly primaryId?: string;
  readonly rank?: number;
  /** The sessions the file maps to, with the event count written for each. */
  readonly sessions: readonly { readonly id: string; readonly events: number }[];
  /** Set for a stale copy: the path of the copy that was imported instead. */
  readonly duplicateOf?: string;
  /** A fork imported unseeded because its parent was absent; re-mapped once the parent arrives. */
  readonly awaitingParent?: string;
}

/**
 * The import ledger: `<data>/import-ledger.json`, keyed by absolute source path. It is an
 * accelerator, not an authority: losing it only costs a re-mapping, because every write is
 * checked against the stored log (a mapping equal to the log changes nothing). It is replaced
 * atomically (temp file, fsync, rename, folder fsync), never edited in place.
 */
export class Ledger {
  readonly #file: string;
  readonly #entries: Map<string, LedgerEntry>;
  #dirty = false;

  private constructor(file: string, entries: Map<string, LedgerEntry>) {
    this.#file = file;
    this.#entries = entries;
  }

  /** Loads the ledger; a missing one is empty, an unreadable one is empty and says so. */
  static async load(dataDir: string): Promise<{ ledger: Ledger; problem?: string }> {
    const file = path.join(dataDir, LEDGER_FILE);
    let text: string;
    try {
      text = await fsp.readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ledger: new Ledger(file, new Map()) };
      throw error;
    }
    // Parsed once: a ledger of a file-per-event store runs to megabytes.
    const raw = parseJson(text);
    const mapping = mappingOf(raw);
    if (mapping !== undefined && mapping !== MAPPING_REVISION) {
      return {
        ledger: new Ledger(file, new Map()),
        problem: `the importers changed since the last run (mapping ${mapping} → ${MAPPING_REVISION}); every file is compared with its stored session again and replaced where its mapping differs`,
      };
    }
    const entries = parseLedger(raw);
    if (entries === undefined) {
      return {
        ledger: new Ledger(file, new Map()),
        problem: `${LEDGER_FILE} is unreadable; every file is compared with the stored sessions again`,
      };
    }
    return { ledger: new Ledger(file, entries) };
  }

  get(file: string): LedgerEntry | undefined {
    return this.#entries.get(file);
  }

  set(file: string, entry: LedgerEntry): void {
    this.#entries.set(file, entry);
    this.#dirty = true;
  }

  delete(file: string): void {
    if (this.#entries.delete(file)) this.#dirty = true;
  }

  /** Entries of one harness whose path lies under `root`. */
  *under(root: string, harness: Harness): Generator<[string, LedgerEntry]> {
    const prefix = root.endsWith(path.sep) ? root : root + path.sep;
    for (const [file, entry] of this.#entries)
      if (entry.harness === harness && file.startsWith(prefix)) yield [file, entry];
  }

  /** Writes the ledger if it changed. */
  async save(): Promise<void> {
    if (!this.#dirty) return;
    const dir = path.dirname(this.#file);
    const tmp = path.join(dir, `.${LEDGER_FILE}.${randomBytes(6).toString('hex')}.tmp`);
    const body = JSON.stringify({
      version: LEDGER_VERSION,
      mapping: MAPPING_REVISION,
      entries: Object.fromEntries(this.#entries),
    });
    // Clean as of this snapshot: an entry set while the file is written (an import saves while
    // its lanes go on) marks it dirty again, for the next save.
    this.#dirty = false;
    try {
      await fsp.mkdir(dir, { recursive: true });
      const handle = await fsp.open(tmp, 'wx');
      try {
        await handle.writeFile(body);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await fsp.rename(tmp, this.#file);
      const dirHandle = await fsp.open(dir, 'r');
      try {
        await dirHandle.sync();
      } finally {
        await dirHandle.close();
      }
    } catch (error) {
      this.#dirty = true;
      // Best effort (its folder may be what failed): the error to report is the write's.
      await fsp.rm(tmp, { force: true }).catch(() => undefined);
      throw new ImportError(
        'IMPORT_LEDGER_WRITE_FAILED',
        `could not write ${this.#file}: ${(error as Error).message}`,
        { cause: error },
      );
    }
  }
}

/** The ledger file's JSON; undefined if it does not parse. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The mapping revision a ledger was written under (1 for one that names none); undefined if unreadable. */
function mappingOf(raw: unknown): number | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const mapping = (raw as { mapping?: unknown }).mapping;
  return mapping === undefined ? 1 : typeof mapping === 'number' ? mapping : undefined;
}

function parseLedger(raw: unknown): Map<string, LedgerEntry> | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { version, entries } = raw as { version?: unknown; entries?: unknown };
  if (version !== LEDGER_VERSION || typeof entries !== 'object' || entries === null) return undefined;
  const out = new Map<string, LedgerEntry>();
  for (const [file, entry] of Object.entries(entries as Record<string, unknown>)) {
    if (isEntry(entry)) out.set(file, entry);
  }
  return out;
}

// Entries are checked field by field so a hand-edited or older ledger costs a re-map, never a crash.
function isEntry(value: unknown): value is LedgerEntry {
  if (typeof value !== 'object' || value === null) return false;
  const e = value as Record<string, unknown>;
  return (
    isHarness(e.harness) &&
    typeof e.size === 'number' &&
    typeof e.mtimeMs === 'number' &&
    typeof e.hash === 'string' &&
    Array.isArray(e.companions) &&
    (e.folder === undefined ||
      (isStamp(e.folder) && ['number', 'undefined'].includes(typeof (e.folder as FolderStamp).ctimeMs))) &&
    Array.isArray(e.sessions) &&
    e.sessions.every(
      (s) => typeof s === 'object' && s !== null && typeof (s as { id?: unknown }).id === 'string',
    )
  );
}

function isStamp(value: unknown): value is CompanionStamp {
  if (typeof value !== 'object' || value === null) return false;
  const s = value as Record<string, unknown>;
  return typeof s.path === 'string' && typeof s.size === 'number' && typeof s.mtimeMs === 'number';
}
