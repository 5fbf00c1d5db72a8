import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SessionListRow } from '@strand/protocol';
import { newSessionHeader, SessionId } from '@strand/session';
import { firstPage, nextPage, rereadRows } from './list-pages.js';

const row = (id: string, version: number): SessionListRow => ({
  id,
  header: newSessionHeader({ id: SessionId(id), createdAt: version }),
  live: false,
  busy: false,
});

const ids = fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), { maxLength: 6 });

describe('list pages', () => {
  it('a re-read with nothing more to page leaves exactly the unasked rows and the returned ones, each current', () => {
    fc.assert(
      fc.property(ids, ids, ids, (loaded, asked, returnedFrom) => {
        // The host returns rows only of asked ids.
        const returned = returnedFrom.filter((id) => asked.includes(id));
        const pages = rereadRows(
          firstPage(
            loaded.map((id) => row(id, 1)),
            undefined,
          ),
          asked,
          returned.map((id) => row(id, 2)),
        );
        const expected = new Set([...loaded.filter((id) => !asked.includes(id)), ...returned]);
        expect(new Set(pages.rows.keys())).toEqual(expected);
        for (const id of returned) expect(pages.rows.get(id)?.header.createdAt).toBe(2);
        expect(pages.nextCursor).toBe(null);
      }),
    );
  });

  it('a re-read while pages follow adds a new row only when it sorts within the pages read', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 20 }), (createdAt) => {
        // Read so far: rows created at 20 down to 10 (newest first); older ones follow.
        const loaded = Array.from({ length: 11 }, (_, n) => row(`r${20 - n}`, 20 - n));
        const pages = rereadRows(firstPage(loaded, 'c1'), ['new'], [row('new', createdAt)]);
        expect(pages.rows.has('new')).toBe(createdAt >= 10);
        // A loaded row re-read is replaced wherever it now sorts.
        const moved = rereadRows(pages, ['r15'], [row('r15', createdAt)]);
        expect(moved.rows.get('r15')?.header.createdAt).toBe(createdAt);
      }),
    );
  });

  it('a further page adds its rows, replaces rows read again, and carries its cursor', () => {
    fc.assert(
      fc.property(ids, ids, fc.option(fc.string()), (first, second, cursor) => {
        const pages = nextPage(
          firstPage(
            first.map((id) => row(id, 1)),
            'c1',
          ),
          second.map((id) => row(id, 2)),
          cursor ?? undefined,
        );
        expect(new Set(pages.rows.keys())).toEqual(new Set([...first, ...second]));
        for (const id of second) expect(pages.rows.get(id)?.header.createdAt).toBe(2);
        expect(pages.nextCursor).toBe(cursor);
      }),
    );
  });
});
