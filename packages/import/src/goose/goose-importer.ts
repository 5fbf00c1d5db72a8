import path from 'node:path';
import type { HarnessImporter } from '../run/harness-importer.js';
import { discoverGoose } from './discover.js';
import { incrementalGoose, mapGoose } from './map-goose.js';
import { peekGoose } from './peek.js';

/**
 * goose's sessions folder, as goose finds it (`Paths::data_dir()` in its
 * `crates/goose/src/config/paths.rs`, then `sessions/`): `$GOOSE_PATH_ROOT/data` when that is an
 * absolute path; else etcetera's app strategy for "goose" — XDG on Linux and macOS
 * (`$XDG_DATA_HOME/goose`, default `~/.local/share/goose`), `%APPDATA%\Block\goose\data` on Windows.
 */
export function gooseSessionsDir(
  home: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  const root = env['GOOSE_PATH_ROOT'];
  if (root !== undefined && path.isAbsolute(root)) return path.join(root, 'data', 'sessions');
  if (platform === 'win32') {
    const appData = env['APPDATA'] ?? path.join(home, 'AppData', 'Roaming');
    return path.join(appData, 'Block', 'goose', 'data', 'sessions');
  }
  const xdg = env['XDG_DATA_HOME'];
  const data = xdg !== undefined && path.isAbsolute(xdg) ? xdg : path.join(home, '.local', 'share');
  return path.join(data, 'goose', 'sessions');
}

export const gooseImporter: HarnessImporter = {
  harness: 'goose',
  defaultDir: (home) => gooseSessionsDir(home),
  discover: discoverGoose,
  peek: peekGoose,
  map: mapGoose,
  // A database is read whole on every change (one snapshot); a legacy file line by line.
  incremental: incrementalGoose,
  // Until a checkpoint, goose's writes reach only `sessions.db-wal`.
  companionChangesUnit: true,
};
