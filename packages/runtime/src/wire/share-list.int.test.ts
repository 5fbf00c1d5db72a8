import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ListIndexRow } from '@strand/projection-cache';
import type { SessionListRow } from '@strand/protocol';
import { SessionId } from '@strand/session';
import { hostFixture, type HostFixture } from '../testing/host-fixture.js';
import { FileShareGrantStore } from '../share-grants-file.js';

/**
 * A shared `session.list` reads the granted rows by id from the list index, the subagent tree
 * through its `parent` filter: however large the corpus, only the grant's rows (and its tree's
 * child pages) leave the index.
 */
const TOKEN = 'host-token-of-sixteen-or-more';
const UNRELATED = 30;

let f: HostFixture;
let grantsDir: string;

beforeAll(async () => {
  grantsDir = mkdtempSync(path.join(tmpdir(), 'strand-share-list-'));
  f = await hostFixture({
    token: TOKEN,
    requireToken: true,
    services: { shares: await FileShareGrantStore.open(grantsDir) },
  });
  await f.storedSession('alpha', 1);
  await f.storedSession('alpha-kid', 1, { origin: 'subagent', parentSession: SessionId('alpha') });
  await f.storedSession('alpha-grandkid', 1, { origin: 'subagent', parentSession: SessionId('alpha-kid') });
  // A fork names its source as parent too, but is no subagent: never covered by a grant.
  await f.storedSession('alpha-fork', 1, { parentSession: SessionId('alpha') });
  for (let i = 0; i < UNRELATED; i++) await f.storedSession(`other-${i}`, 1);
});

afterAll(async () => {
  await f.close();
  rmSync(grantsDir, { recursive: true, force: true });
});

/** Counts the rows the list index hands out while `work` runs. */
async function rowsReadDuring(work: () => Promise<unknown>): Promise<number> {
  const index = f.services.cache.listIndex!;
  const page = vi.spyOn(index, 'page');
  const rows = vi.spyOn(index, 'rows');
  try {
    await work();
    const answers = await Promise.all(
      [...page.mock.results, ...rows.mock.results].map((r) => r.value as Promise<readonly ListIndexRow[]>),
    );
    return answers.reduce((n, answer) => n + answer.length, 0);
  } finally {
    page.mockRestore();
    rows.mockRestore();
  }
}

describe('a shared session.list', () => {
  it.each([
    { descendants: true, listed: ['alpha', 'alpha-grandkid', 'alpha-kid'] },
    { descendants: false, listed: ['alpha'] },
  ])(
    'lists the grant ($listed) reading only its rows from the index, not the corpus',
    async ({ descendants, listed }) => {
      const admin = await f.connect({ token: TOKEN });
      const made = await admin.call<{ shareToken: string }>('share.create', {
        id: 'alpha',
        descendants,
        createdBy: 'web',
      });
      const viewer = await f.connect({ token: made.shareToken });
      let answer: SessionListRow[] = [];
      const read = await rowsReadDuring(async () => {
        answer = (await viewer.call<{ sessions: SessionListRow[] }>('session.list', { limit: 50 })).sessions;
      });
      expect(answer.map((row) => row.id).sort()).toEqual(listed);
      // The granted rows by id, plus each tree level's children page (the fork among them).
      expect(read).toBeLessThanOrEqual(2 * listed.length + 1);
      // Asking for ids narrows within the grant, and never reaches outside it.
      const byIds = await viewer.call<{ sessions: SessionListRow[] }>('session.list', {
        ids: ['alpha', 'other-1'],
      });
      expect(byIds.sessions.map((row) => row.id)).toEqual(['alpha']);
    },
  );
});
