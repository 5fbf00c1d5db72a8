import path from 'node:path';
import { openJsonlPersistence, openSqlitePersistence, type SessionPersistence } from '@strand/persistence';

export const BACKENDS = ['jsonl', 'sqlite'] as const;
export type BackendName = (typeof BACKENDS)[number];

/** Opens one of the backends over a bench folder. */
export async function openBackend(name: string, root: string): Promise<SessionPersistence> {
  if (name === 'jsonl') return openJsonlPersistence({ root });
  if (name === 'sqlite') return openSqlitePersistence({ path: path.join(root, 'strand.db') });
  throw new Error(`unknown backend ${name}`);
}
