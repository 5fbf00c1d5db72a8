import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { applySessionList, ListChanges } from '@strand/client';
import { MAX_LIST_PAGE_LIMIT, type SessionListRow } from '@strand/protocol';
import { describeError } from '../shared/format.js';
import { useStrand } from '../shared/hooks.js';
import { firstPage, nextPage, rereadRows, type ListPages } from './list-pages.js';

/** Rows per `session.list` page: a screenful many times over, one small frame. */
export const LIST_PAGE_SIZE = 200;

export interface SessionListState {
  /** The rows read so far (`null` until the first page arrived). */
  readonly rows: readonly SessionListRow[] | null;
  readonly error: string | null;
  /** More rows follow the loaded pages. */
  readonly hasMore: boolean;
  /** Reads the next page (no-op while one is in flight or none follows). */
  readonly loadMore: () => void;
}

/**
 * The session list, read in pages and kept current by the host's `list.changed` frames instead of
 * polling: the first page once subscribed (and again after a reconnect, or when `refreshKey`
 * changes), further pages as the view asks (`loadMore`), and only the rows a frame names re-read
 * (`session.list {ids}`), one re-read at a time with the ids that piled up meanwhile. Each row's
 * hints go to the projection store as it arrives.
 */
export function useSessionList(refreshKey: number): SessionListState {
  const { connection, store } = useStrand();
  const [pages, setPages] = useState<ListPages | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Bumped by every first-page read: a page or re-read begun before it is dropped.
  const generation = useRef(0);
  const paging = useRef(false);
  const cursor = useRef<string | null>(null);
  const changed = useRef(new Set<string>());
  const rereading = useRef(false);

  const received = useCallback(
    (rows: readonly SessionListRow[]) => {
      applySessionList(store, rows);
    },
    [store],
  );

  const reload = useCallback(async (): Promise<void> => {
    const mine = ++generation.current;
    paging.current = false;
    try {
      const { sessions, nextCursor } = await connection.call('session.list', { limit: LIST_PAGE_SIZE });
      if (mine !== generation.current) return;
      received(sessions);
      cursor.current = nextCursor ?? null;
      setPages(firstPage(sessions, nextCursor));
      setError(null);
    } catch (failure) {
      if (mine === generation.current) setError(describeError(failure));
    }
  }, [connection, received]);

  const loadMore = useCallback((): void => {
    const after = cursor.current;
    if (after === null || paging.current) return;
    paging.current = true;
    const mine = generation.current;
    connection.call('session.list', { cursor: after, limit: LIST_PAGE_SIZE }).then(
      ({ sessions, nextCursor }) => {
        if (mine !== generation.current) return;
        paging.current = false;
        received(sessions);
        cursor.current = nextCursor ?? null;
        setPages((current) => (current === null ? current : nextPage(current, sessions, nextCursor)));
      },
      (failure: unknown) => {
        if (mine !== generation.current) return;
        paging.current = false;
        // A cursor the host no longer takes (another version, say): start over from the top.
        if ((failure as { code?: unknown } | null)?.code === 'HOST_LIST_CURSOR_INVALID') void reload();
        else setError(describeError(failure));
      },
    );
  }, [connection, received, reload]);

  const reread = useCallback(async (): Promise<void> => {
    if (rereading.current) return;
    rereading.current = true;
    try {
      while (changed.current.size > 0) {
        const asked = [...changed.current].slice(0, MAX_LIST_PAGE_LIMIT);
        for (const id of asked) changed.current.delete(id);
        const mine = generation.current;
        const { sessions } = await connection.call('session.list', { ids: asked });
        if (mine !== generation.current) continue;
        received(sessions);
        setPages((current) => (current === null ? current : rereadRows(current, asked, sessions)));
      }
    } catch (failure) {
      setError(describeError(failure));
    } finally {
      rereading.current = false;
    }
  }, [connection, received]);

  useEffect(() => {
    const changes = new ListChanges(
      connection,
      {},
      {
        onChanged: (ids) => {
          for (const id of ids) changed.current.add(id);
          void reread();
        },
        // Subscribed on this socket: what was listed before may be stale, list from the top.
        onSubscribed: () => {
          changed.current.clear();
          void reload();
        },
      },
    );
    return () => changes.close();
  }, [connection, reload, reread]);

  // An explicit ask (the app created a session, say); the first render lists through the subscription.
  const firstKey = useRef(refreshKey);
  useEffect(() => {
    if (refreshKey !== firstKey.current) void reload();
  }, [refreshKey, reload]);

  const rows = useMemo(() => (pages === null ? null : [...pages.rows.values()]), [pages]);
  return {
    rows,
    error,
    hasMore: pages?.nextCursor != null,
    loadMore,
  };
}
