import type { StrandRuntime } from '@strand/runtime';
import { SessionId } from '@strand/session';

type Query = Pick<StrandRuntime['services']['query'], 'observeSession'>;

/**
 * Gives one stored session its projection cache rows through the query's read-through: with rows
 * already there this is a tail read (cheap); without, one whole-log fold writes them, the path a
 * person's first view of the session takes. Nothing stays prepared.
 */
export async function fillSessionRows(query: Query, id: string): Promise<void> {
  const observation = await query.observeSession(SessionId(id), {
    projectionMode: 'all',
    window: { last: 1 },
    retainPrepared: false,
    fillCache: true,
  });
  observation.dispose();
}

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
 * may lag, never disagree), so catching up is not held back by them. One session at a time
 * (`fillSessionRows`). A session that fails is one problem: it is folded when first viewed instead.
 */
export function fillCacheRows(
  query: Query,
  ids: readonly string[],
  onProblem: (id: string, error: unknown) => void,
): RowFill {
  let stopped = false;
  const done = (async () => {
    let filled = 0;
    for (const id of ids) {
      if (stopped) break;
      try {
        await fillSessionRows(query, id);
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
