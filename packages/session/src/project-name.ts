/**
 * The last folder name of a working folder (`/home/dev/strand/` → `strand`, `C:\src\web` →
 * `web`): trailing `/` and `\` dropped, then what follows the last of either. `null` without a
 * `cwd`. The one rule a "project name" filter matches everywhere (`session.list`'s and
 * `session.search`'s `projectName`): agents name a project by its folder. Here, below both the
 * list index and the search index, so neither imports the other for it.
 */
export function projectNameOf(cwd: string | undefined): string | null {
  if (cwd === undefined) return null;
  const folder = cwd.replace(/[/\\]+$/, '');
  return folder.slice(Math.max(folder.lastIndexOf('/'), folder.lastIndexOf('\\')) + 1);
}
