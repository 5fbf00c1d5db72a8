/**
 * Two processes opening one SQLite file at once, made deterministic in one thread: the other
 * process's open runs on its own connection at the worst moment of the first — after a check the
 * first read, before it acts on it.
 */

/** What `better-sqlite3`'s `Database.pragma` is, as far as this module needs. */
interface PragmaConnection {
  pragma(source: string, options?: { simple?: boolean }): unknown;
}

/**
 * Makes `db.pragma(trigger)` read, then run `meanwhile` once, then answer what it read. `trigger`
 * is the pragma text exactly as the code under test passes it (`'table_info(list_rows)'`).
 */
export function runAfterPragma<D extends PragmaConnection>(db: D, trigger: string, meanwhile: () => void): D {
  const pragma = db.pragma.bind(db);
  let ran = false;
  db.pragma = (source: string, options?: { simple?: boolean }) => {
    const answer = pragma(source, options);
    if (!ran && source === trigger) {
      ran = true;
      meanwhile();
    }
    return answer;
  };
  return db;
}

/**
 * Runs another process's open that must not wait (its connection has `timeout: 0`, where a real
 * process would wait for the lock): `'opened'`, or the code of the error it met at the bottom of
 * its causes (`'SQLITE_BUSY'` under a package's own error that wraps it).
 */
export function openOutcome(open: () => void): string {
  try {
    open();
    return 'opened';
  } catch (error) {
    let deepest = error as { code?: unknown; cause?: unknown };
    while (typeof (deepest.cause as { code?: unknown } | undefined)?.code === 'string')
      deepest = deepest.cause as { code?: unknown; cause?: unknown };
    return typeof deepest.code === 'string' ? deepest.code : String(error);
  }
}
