import { Option } from 'commander';

/**
 * `--store <url>` (or `STRAND_STORE`): a PostgreSQL database (`postgres://…`) holding sessions,
 * projection cache and search for several hosts at once. Without it the data folder's files and
 * SQLite databases are the store. The runtime validates the value.
 */
export function storeOption(): Option {
  return new Option(
    '--store <url>',
    'shared PostgreSQL store (postgres://user@host/db) instead of the data folder; several hosts may serve one',
  ).env('STRAND_STORE');
}
