import { SearchIndexError } from './errors.js';

/**
 * What a search cursor names: a position in one result snapshot of one index generation. The wire
 * form is opaque (base64url of a small JSON object); only this module reads it.
 */
export interface SearchCursor {
  /** The index database's random id, so a cursor of another index (or a recreated file) is stale. */
  readonly indexId: string;
  readonly generation: number;
  readonly snapshotId: number;
  /** Position in the snapshot's ordered session list where the next page starts. */
  readonly offset: number;
}

const VERSION = 1;

export function encodeCursor(cursor: SearchCursor): string {
  const wire = {
    v: VERSION,
    i: cursor.indexId,
    g: cursor.generation,
    s: cursor.snapshotId,
    o: cursor.offset,
  };
  return Buffer.from(JSON.stringify(wire), 'utf8').toString('base64url');
}

/** Throws `SEARCH_INVALID_QUERY` for anything that is not a cursor this module wrote. */
export function decodeCursor(text: string): SearchCursor {
  let wire: unknown;
  try {
    if (typeof text !== 'string' || text.length === 0 || text.length > 512 || !/^[A-Za-z0-9_-]+$/.test(text))
      throw new Error('not base64url');
    wire = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch (error) {
    throw new SearchIndexError('SEARCH_INVALID_QUERY', 'the search cursor is malformed', {
      cause: error,
    });
  }
  const w = wire as Record<string, unknown> | null;
  const count = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
  if (
    typeof w !== 'object' ||
    w === null ||
    w.v !== VERSION ||
    typeof w.i !== 'string' ||
    !count(w.g) ||
    !count(w.s) ||
    !count(w.o)
  ) {
    throw new SearchIndexError('SEARCH_INVALID_QUERY', 'the search cursor is malformed');
  }
  return { indexId: w.i, generation: w.g, snapshotId: w.s, offset: w.o };
}
