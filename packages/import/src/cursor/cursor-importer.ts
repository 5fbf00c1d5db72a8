import path from 'node:path';
import type { HarnessImporter } from '../run/harness-importer.js';
import { discoverCursor } from './discover.js';
import { mapCursor } from './map-cursor.js';
import { peekCursor } from './peek.js';

/**
 * The Cursor editor's global storage folder, where `state.vscdb` holds every chat (VS Code's
 * user data folder for the app `Cursor`): `~/.config/Cursor/User/globalStorage` on Linux,
 * `~/Library/Application Support/Cursor/User/globalStorage` on macOS,
 * `%APPDATA%\Cursor\User\globalStorage` on Windows.
 */
export function cursorGlobalStorageDir(
  home: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  if (platform === 'darwin')
    return path.join(home, 'Library', 'Application Support', 'Cursor', 'User', 'globalStorage');
  if (platform === 'win32') {
    const appData = env['APPDATA'] ?? path.join(home, 'AppData', 'Roaming');
    return path.join(appData, 'Cursor', 'User', 'globalStorage');
  }
  const xdg = env['XDG_CONFIG_HOME'];
  const config = xdg !== undefined && path.isAbsolute(xdg) ? xdg : path.join(home, '.config');
  return path.join(config, 'Cursor', 'User', 'globalStorage');
}

export const cursorImporter: HarnessImporter = {
  harness: 'cursor',
  defaultDir: (home) => cursorGlobalStorageDir(home),
  discover: discoverCursor,
  peek: peekCursor,
  map: (unit) => mapCursor(unit),
  // A database is not a file appended to: every change is read whole (one snapshot) and compared.
  incremental: () => Promise.resolve(undefined),
  // Until a checkpoint, a write in WAL mode reaches only `state.vscdb-wal`.
  companionChangesUnit: true,
};
