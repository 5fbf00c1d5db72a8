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
  it('a re-read leaves exactly the unasked rows and the returned ones, each returned row current', () => {
    fc.assert(
      fc.property(ids, ids, ids, (loaded, asked, returnedFrom) => {
        // The host returns rows only of asked ids.
        const returned = returnedFrom.filter((id) => asked.includes(id));
        const pages = rereadRows(
          firstPage(
            loaded.map((id) => row(id, 1)),
            'c1',
          ),
          asked,
          returned.map((id) => row(id, 2)),
        );
        const expected = new Set([...loaded.filter((id) => !asked.includes(id)), ...returned]);
        expect(new Set(pages.rows.keys())).toEqual(expected);
        for (const id of returned) expect(pages.rows.get(id)?.header.createdAt).toBe(2);
        expect(pages.nextCursor).toBe('c1');
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
