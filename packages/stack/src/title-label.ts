import { titleUnit, TITLE_READS } from '@strand/projection';
import type { LabelExtractor } from '@strand/search';

/**
 * The search index's session label is the session's title, as the `title` projection unit
 * defines it — the index learns no event vocabulary; this is where the two meet. The unit is
 * last-wins over `session/title`, so folding one such event from the unit's initial state gives
 * exactly the title that event sets (`null` for a corrupt one, which clears the label); every other
 * event leaves the label as it was. The index reads these events through its durable cut like any
 * other text, so a title it serves came from durable events.
 */
export const titleLabeler: LabelExtractor = (event) => {
  if (!TITLE_READS.includes(event.type)) return undefined;
  // The unit's initial state is `null` (its `init` ignores the header); the event's own title is
  // all that matters. A method call, not Function.prototype.apply.
  const fold = titleUnit.apply.bind(titleUnit);
  return fold(null, event);
};
