import type { ProjectionRegistry } from '@strand/projection';
import type { MessageContent, Session } from '@strand/session';
import type { ModelRoute } from '../model/model.js';
import { titleFromPrompt } from '../turn/title.js';

/**
 * Facts the runtime needs about a live session, read from its projections — the one fold
 * authority — never re-derived from events.
 */

/** The route the `modelSelection` projection expects next (`pending ?? lastRequest`), or null. */
export function selectionOf(registry: ProjectionRegistry, session: Session): ModelRoute | null {
  try {
    const view = registry.snapshot(session, ['modelSelection']).values.modelSelection;
    return view === undefined || view === null ? null : (view.pending ?? view.lastRequest);
  } catch {
    // PROJECTION_FAILED was reported by the registry; with no readable selection the default model answers.
    return null;
  }
}

/** The session's preset as the `agentPreset` projection folds it; null when none (or unreadable). */
export function presetOf(registry: ProjectionRegistry, session: Session): string | null {
  try {
    return registry.snapshot(session, ['agentPreset']).values.agentPreset ?? null;
  } catch {
    // PROJECTION_FAILED was reported by the registry; the deployment's defaults apply.
    return null;
  }
}

/**
 * At the end of a completed turn, before its `turn/end`: a session whose `title` projection is
 * still `null` gets a title from that turn's prompt. A person's earlier rename is a title, so it wins; the runtime never
 * overwrites one. An unregistered title unit (key absent) means no titles here.
 */
export async function titleIfUntitled(
  registry: ProjectionRegistry,
  session: Session,
  prompt: MessageContent,
): Promise<void> {
  let title: unknown;
  try {
    title = registry.snapshot(session, ['title']).values.title;
  } catch {
    // The fold failed (already reported); better no title than one over a title we cannot see.
    return;
  }
  if (title !== null) return;
  const derived = titleFromPrompt(prompt);
  if (derived === undefined) return;
  await session.append({ type: 'session/title', data: { title: derived } });
}
