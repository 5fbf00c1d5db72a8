import type { StrandRuntime } from '@strand/runtime';
import { DEMO_LONG_SESSION } from './demo-corpus.js';

/**
 * Gives the demo's long session its projection cache rows before the URL is announced, as a
 * session written live would have them from its turn ends: the first view of it is then a tail
 * read, not a fold of 50k events. With rows already there this is itself a tail read (cheap);
 * without, one whole-log fold writes them (the query's read-through). Nothing stays prepared.
 */
export async function warmDemoCache(runtime: StrandRuntime): Promise<void> {
  try {
    const observation = await runtime.services.query.observeSession(DEMO_LONG_SESSION, {
      projectionMode: 'all',
      window: { last: 1 },
      retainPrepared: false,
      fillCache: true,
    });
    observation.dispose();
  } catch (error) {
    // A demo folder without demo-long (or a damaged one) still serves; the first view folds instead.
    console.error('strand demo: could not warm the cache of demo-long', error);
  }
}
