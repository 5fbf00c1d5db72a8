import type Database from 'better-sqlite3';
import { listProjectNameOf } from './list-row.js';

/**
 * Schema step 4: `list_rows.project_name`, the `cwd`'s last folder name (`listProjectNameOf`),
 * which `session.list`'s `projectName` filter matches, indexed behind the list order like the
 * other filter columns so a filtered page is one index range scan from its cursor. A database of
 * an older version gets the column filled from the rows' `cwd` here, in one transaction (SQLite
 * has no function that splits a path, so the rows are read and written back by their id).
 */
export function prepareProjectNameSchema(db: Database.Database): void {
  const columns = db.pragma('table_info(list_rows)') as readonly { readonly name: string }[];
  if (!columns.some((column) => column.name === 'project_name')) {
    db.transaction(() => {
      db.exec('ALTER TABLE list_rows ADD COLUMN project_name TEXT');
      const fill = db.prepare<[string | null, string]>(
        'UPDATE list_rows SET project_name = ? WHERE session_id = ?',
      );
      const rows = db
        .prepare<[], [string, string]>('SELECT session_id, cwd FROM list_rows WHERE cwd IS NOT NULL')
        .raw(true)
        .all();
      for (const [id, cwd] of rows) fill.run(listProjectNameOf(cwd), id);
    })();
  }
  db.exec(
    'CREATE INDEX IF NOT EXISTS list_rows_by_project_name ON list_rows (project_name, activity_at DESC, session_id)',
  );
}
