import { useCallback, useEffect, useRef, useState } from 'react';
import { describeError } from '../shared/format.js';
import { useStrand } from '../shared/hooks.js';
import { excerptRange, prependPage, type EventRun } from './target-excerpt.js';

export type TargetExcerpt =
  /** No excerpt is needed: no target, or the target is in (or after) the follower's window. */
  | { readonly kind: 'none' }
  | { readonly kind: 'loading'; readonly targetSeq: number }
  | { readonly kind: 'loaded'; readonly run: EventRun }
  | { readonly kind: 'failed'; readonly message: string };

/**
 * Reads the neighbourhood of a `?seq=` target that lies before the follower's window
 * (`windowFirstSeq`; undefined until the follow has a window): one `session.page` per target.
 * `loadOlder` pages the excerpt back (`session.page { beforeSeq }`).
 */
export function useTargetExcerpt(
  sessionId: string,
  targetSeq: number | undefined,
  windowFirstSeq: number | undefined,
): { readonly excerpt: TargetExcerpt; readonly loadOlder: (limit: number) => Promise<void> } {
  const { connection } = useStrand();
  const [state, setState] = useState<{ key: string; excerpt: TargetExcerpt } | null>(null);
  const wanted =
    targetSeq !== undefined && windowFirstSeq !== undefined && targetSeq < windowFirstSeq
      ? targetSeq
      : undefined;
  const key = `${sessionId}\n${String(targetSeq)}`;
  // Once read, an excerpt stays while the target does: the window growing over it (a live
  // session paging older) joins it instead of dropping it.
  const held = state?.key === key ? state.excerpt : undefined;
  // One read per target: the request is not cancelled by the re-render its own "loading" state
  // causes, only superseded by another target (its answer is then dropped).
  const requested = useRef<string | null>(null);
  useEffect(() => {
    if (wanted === undefined || requested.current === key) return;
    requested.current = key;
    setState({ key, excerpt: { kind: 'loading', targetSeq: wanted } });
    connection.call('session.page', { id: sessionId, ...excerptRange(wanted) }).then(
      (page) => {
        if (requested.current === key) setState({ key, excerpt: { kind: 'loaded', run: page } });
      },
      (failure: unknown) => {
        if (requested.current === key)
          setState({ key, excerpt: { kind: 'failed', message: describeError(failure) } });
      },
    );
  }, [connection, sessionId, wanted, key]);

  const loaded = held?.kind === 'loaded' ? held.run : undefined;
  const loadOlder = useCallback(
    async (limit: number): Promise<void> => {
      if (loaded === undefined || loaded.firstSeq === 0) return;
      const page = await connection.call('session.page', {
        id: sessionId,
        beforeSeq: loaded.firstSeq,
        limit,
      });
      setState((now) =>
        now?.key === key && now.excerpt.kind === 'loaded'
          ? { key, excerpt: { kind: 'loaded', run: prependPage(now.excerpt.run, page) } }
          : now,
      );
    },
    [connection, sessionId, key, loaded],
  );
  return {
    excerpt: held ?? (wanted === undefined ? { kind: 'none' } : { kind: 'loading', targetSeq: wanted }),
    loadOlder,
  };
}
