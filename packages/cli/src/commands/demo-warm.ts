import type { StrandRuntime } from '@strand/runtime';
import { problemLine } from '../problem-line.js';
import { fillSessionRows } from './catch-up-rows.js';
import { DEMO_LONG_SESSION } from './demo-corpus.js';

/**
 * Gives the demo's long session its projection cache rows before the URL is announced, as a
 * session written live would have them from its turn ends: the first view of it is then a tail
 * read, not a fold of 50k events (`fillSessionRows`: a tail read when the rows are there).
 */
export async function warmDemoCache(runtime: StrandRuntime): Promise<void> {
  try {
    await fillSessionRows(runtime.services.query, DEMO_LONG_SESSION);
  } catch (error) {
    // A demo folder without demo-long (or a damaged one) still serves; the first view folds instead.
    console.error(problemLine('could not warm the cache of demo-long', error));
  }
}
