import { promises as fsp } from 'node:fs';
import { watch, type FSWatcher } from 'chokidar';
import type { ImportReport } from '../types.js';

/**
 * Watches `root` recursively and tells `changed` of every file added, changed or removed under
 * it; undefined (reported) when `root` is no folder. Watching is opt-in and never creates a
 * harness's folder. An error after start (a folder the OS would not watch) is reported; the rest
 * keeps going.
 */
export async function watchFolder(
  root: string,
  usePolling: boolean,
  report: (report: ImportReport) => void,
  changed: (file: string) => void,
): Promise<FSWatcher | undefined> {
  if (
    !(await fsp.stat(root).then(
      (s) => s.isDirectory(),
      () => false,
    ))
  ) {
    report({ file: root, line: null, kind: 'note', reason: 'not a folder: not watched' });
    return undefined;
  }
  const watcher = await openWatcher(root, usePolling, report);
  watcher.on('error', (error) =>
    report({ file: root, line: null, kind: 'note', reason: `watching failed: ${(error as Error).message}` }),
  );
  watcher.on('add', changed);
  watcher.on('change', changed);
  watcher.on('unlink', changed);
  return watcher;
}

/**
 * A recursive watcher on `root`. When the OS refuses more watches (inotify's limit: thousands of
 * transcript folders), it falls back to polling and says so once.
 */
async function openWatcher(
  root: string,
  usePolling: boolean,
  report: (report: ImportReport) => void,
): Promise<FSWatcher> {
  const open = (polling: boolean): Promise<FSWatcher> =>
    new Promise((resolve, reject) => {
      const watcher = watch(root, {
        ignoreInitial: true,
        persistent: true,
        usePolling: polling,
        ...(polling ? { interval: 250 } : {}),
        // Spilled tool output and project memory are never transcripts; nor are dependencies and
        // git's own files in the project trees aider histories are watched in.
        ignored: (p: string) => /[/\\](tool-results|memory|node_modules|\.git)([/\\]|$)/.test(p),
      });
      const fail = (error: unknown): void => {
        void watcher.close();
        reject(error instanceof Error ? error : new Error(String(error)));
      };
      watcher.once('error', fail);
      watcher.once('ready', () => {
        watcher.off('error', fail);
        resolve(watcher);
      });
    });
  if (usePolling) return open(true);
  try {
    return await open(false);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOSPC' && code !== 'EMFILE') throw error;
    report({
      file: root,
      line: null,
      kind: 'note',
      reason: `the OS watch limit was reached (${code}); polling this folder every 250 ms instead (raise fs.inotify.max_user_watches to avoid it)`,
    });
    return open(true);
  }
}
