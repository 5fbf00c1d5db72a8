/**
 * Cache schema step 4 (its own file, so merging another step only renumbers it): the list row's
 * `project_name`, the `cwd`'s last folder name (`listProjectNameOf` of @strand/projection-cache),
 * which `session.list`'s `projectName` filter matches, indexed behind the list order like the other
 * filter columns. A database of an older version gets it filled from `cwd` by the same rule in SQL:
 * trailing `/` and `\` dropped, then the text after the last of either (`chr(92)` is `\`, kept out
 * of string literals so no escaping rule of the server applies).
 */
export const PROJECT_NAME_DDL = `
ALTER TABLE list_rows ADD COLUMN project_name text;
UPDATE list_rows SET project_name =
  reverse(split_part(reverse(translate(rtrim(cwd, '/' || chr(92)), chr(92), '/')), '/', 1))
WHERE cwd IS NOT NULL;
CREATE INDEX list_rows_by_project_name ON list_rows (project_name, activity_at DESC, session_id);
`;
