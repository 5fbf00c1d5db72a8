import type { StrandRuntime } from '@strand/runtime';
import { SessionId } from '@strand/session';

export interface RowFill {
  /** Resolves with how many sessions got their rows, once every one is done or the fill stopped. */
  readonly done: Promise<number>;
  /** Stops after the session being filled (the host is closing); resolves when it has. */
  stop(): Promise<number>;
}

/**
 * Gives the sessions a `serve --watch` catch-up imported their projection cache rows, in the
 * background, once the host serves: the rows `strand import` writes before it exits, so the list
 * shows their titles. A host can derive them after it is caught up (cache rows are derived: they
 * may lag, never disagree), so catching up is not held back by them. One session at a time, each
 * a whole-log fold through the query's read-through (`fillCache`), the path a person's first view
 * of the session takes; a session whose rows are already there costs a tail read. A session that
 * fails is one problem: it is folded when first viewed instead.
 */
export function fillCacheRows(
  query: Pick<StrandRuntime['services']['query'], 'observeSession'>,
  ids: readonly string[],
  onProblem: (id: string, error: unknown) => void,
): RowFill {
  let stopped = false;
  const done = (async () => {
    let filled = 0;
    for (const id of ids) {
      if (stopped) break;
      try {
        const observation = await query.observeSession(SessionId(id), {
          projectionMode: 'all',
          window: { last: 1 },
          retainPrepared: false,
          fillCache: true,
        });
        observation.dispose();
        filled++;
      } catch (error) {
        onProblem(id, error);
      }
      // Yield between sessions, so the host's own work (appends, follows) goes first.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    return filled;
  })();
  return {
    done,
    stop: () => {
      stopped = true;
      return done;
    },
  };
}
