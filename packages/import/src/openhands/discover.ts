import { promises as fsp, type Dirent, type Stats } from 'node:fs';
import path from 'node:path';
import type { RecallFolder, SourceUnit } from '../run/harness-importer.js';
import { ahead } from '../source/read-ahead.js';

/** `<n>.json`: one event of OpenHands's event stream (`get_conversation_event_filename`). */
const EVENT_FILE = /^(\d+)\.json$/;

/** The event files of an `events/` folder, in event-id order (numeric, not by name). */
export async function eventFiles(eventsDir: string): Promise<string[]> {
  let entries;
  try {
    entries = await fsp.readdir(eventsDir, { withFileTypes: true });
  } catch {
    return [];
  }
  // A re-import that changes nothing lists every conversation's events: one match and one string
  // a file here (no `path.join`), as the listing runs to tens of thousands of files.
  const events: { name: string; n: number }[] = [];
  for (const e of entries) {
    const match = EVENT_FILE.exec(e.name);
    if (match !== null && e.isFile()) events.push({ name: e.name, n: Number(match[1]) });
  }
  const prefix = eventsDir + path.sep;
  return events.sort((a, b) => a.n - b.n).map((e) => prefix + e.name);
}

/**
 * Every OpenHands conversation under `root`: a folder holding an `events/` folder of `<n>.json`
 * files (`sessions/<sid>/events/`, or `users/<uid>/conversations/<sid>/events/` in a multi-user
 * store: `openhands/storage/locations.py`). A conversation is one unit: its first event file is
 * the unit's file, every later event file and `metadata.json` its companions — new events are new
 * files, so a change of a companion is a change of the unit. `event_cache/` pages (copies of 25
 * events each) are not read. Symlinks are not followed.
 *
 * With `recall` (the ledger's record of each `events/` folder), a conversation whose `events/`
 * folder has the recorded mtime and ctime is neither listed nor is its folder: a file created in
 * or removed from `events/` moves both, and OpenHands writes each event file once (`add_event`).
 * Its unit comes `unlisted`, with the recorded first event file and `metadata.json` (statted by
 * the run, so one created since is seen).
 */
export async function discoverOpenhands(root: string, recall?: RecallFolder): Promise<SourceUnit[]> {
  // Live ingest discovers the folder of a changed file: for a new event file that is the
  // conversation's `events/` folder itself, whose unit is its conversation's.
  if (path.basename(root) === 'events') {
    const unit = await conversationUnit(path.dirname(root));
    return unit === undefined ? [] : [unit];
  }
  // Folders are walked side by side (a window at a time, `ahead`): a store holds thousands of
  // conversations, and a re-import that changes nothing is mostly this walk — one after another,
  // each folder's listing waited for the thread pool in turn.
  const walk = async (dir: string): Promise<SourceUnit[]> => {
    const known = recall?.(path.join(dir, 'events'));
    let eventsStat: Stats | undefined;
    if (known !== undefined) {
      const events = path.join(dir, 'events');
      eventsStat = await fsp.lstat(events).catch(() => undefined);
      if (eventsStat?.isDirectory() === true) {
        if (eventsStat.mtimeMs === known.mtimeMs && eventsStat.ctimeMs === known.ctimeMs)
          return [
            {
              file: known.file,
              // Statted by the run whether there or not: one written since is a change.
              companions: [path.join(dir, 'metadata.json')],
              writeOnceFolder: events,
              folderStat: { mtimeMs: eventsStat.mtimeMs, ctimeMs: eventsStat.ctimeMs },
              unlisted: true,
            },
          ];
      } else eventsStat = undefined;
    }
    let entries;
    try {
      entries = await fsp.readdir(dir, { withFileTypes: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'EACCES' || code === 'ENOTDIR') return [];
      throw error;
    }
    if (entries.some((e) => e.isDirectory() && e.name === 'events')) {
      const unit = await conversationUnit(dir, entries, eventsStat);
      return unit === undefined ? [] : [unit];
    }
    const folders = entries
      .filter((e) => e.isDirectory() && e.name !== 'event_cache' && e.name !== 'node_modules')
      .map((e) => path.join(dir, e.name));
    const units: SourceUnit[] = [];
    const walked = ahead(folders, (folder) =>
      walk(folder).then(
        (found) => ({ found }),
        (error: unknown) => ({ error }),
      ),
    );
    for await (const result of walked) {
      if ('error' in result) throw result.error;
      units.push(...result.found);
    }
    return units;
  };
  const units = await walk(root);
  return units.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

/**
 * A conversation folder's unit: its first event file, the later ones and `metadata.json` as
 * companions. `entries` is the folder's listing (a `metadata.json` there needs no stat of its own);
 * `eventsStat` a stat of `events/` taken before this listing of it, if one was.
 */
async function conversationUnit(
  dir: string,
  entries?: readonly Dirent[],
  eventsStat?: Stats,
): Promise<SourceUnit | undefined> {
  const events = path.join(dir, 'events');
  // Statted before it is listed: a file created after the listing must move the folder away from
  // the stat the ledger records (a stat taken after could already count it, unlisted, unread).
  const folderStat = eventsStat ?? (await fsp.lstat(events).catch(() => undefined));
  const files = await eventFiles(events);
  if (files.length === 0) return undefined;
  // No metadata.json: the headless CLI writes none (events only).
  const listing = entries ?? (await fsp.readdir(dir, { withFileTypes: true }).catch(() => []));
  const metadata = listing.some((e) => e.isFile() && e.name === 'metadata.json')
    ? [path.join(dir, 'metadata.json')]
    : [];
  // OpenHands writes each event once, under the next number, and never again (`add_event` in
  // `openhands/events/stream.py`): the events folder is the unit's write-once folder.
  return {
    file: files[0]!,
    companions: [...files.slice(1), ...metadata],
    writeOnceFolder: events,
    ...(folderStat === undefined
      ? {}
      : { folderStat: { mtimeMs: folderStat.mtimeMs, ctimeMs: folderStat.ctimeMs } }),
  };
}
