import {
  SessionError,
  SessionId,
  endOfTurnContaining,
  newSessionHeader,
  planFork,
  defined,
} from '@strand/session';
import { HostError } from '../errors.js';
import type { HostServices } from '../services.js';
import { randomUUID } from 'node:crypto';

/**
 * `session.attachment`: a blob, only if the session's log references it (an image block's `ref`).
 * One exact observation; never activates an agent.
 */
export async function sessionAttachment(
  services: HostServices,
  params: { id: string; ref: string },
  signal: AbortSignal,
): Promise<{ mediaType: string; base64: string }> {
  const id = SessionId(params.id);
  const observation = await services.query.observeSession(id, { projectionMode: 'none', signal });
  try {
    if (!observation.events.some((event) => referencesAttachment(event.data, params.ref))) {
      throw new HostError(
        'HOST_ATTACHMENT_NOT_REFERENCED',
        `session ${id} does not reference attachment ${params.ref}`,
      );
    }
  } finally {
    observation.dispose();
  }
  const attachment = await services.persistence.readAttachment(id, params.ref, { signal });
  return { mediaType: attachment.mediaType, base64: Buffer.from(attachment.bytes).toString('base64') };
}

/** Authorization only (is the ref in this log?), not a client-visible fact: no projection owns it. */
function referencesAttachment(data: unknown, ref: string): boolean {
  const content = (data as { content?: unknown } | null)?.content;
  return (
    Array.isArray(content) &&
    content.some(
      (block) =>
        (block as { type?: unknown; ref?: unknown }).type === 'image' &&
        (block as { ref?: unknown }).ref === ref,
    )
  );
}

/**
 * `session.fork`: a new ordinary session seeded with the source's events up to the end of the
 * turn containing `atSeq`. The source is only read.
 */
export async function sessionFork(
  services: HostServices,
  params: { id: string; atSeq: number },
  signal: AbortSignal,
): Promise<{ id: string }> {
  const source = SessionId(params.id);
  const observation = await services.query.observeSession(source, { projectionMode: 'none', signal });
  try {
    const cut = endOfTurnContaining(observation.events, params.atSeq);
    if (cut === undefined)
      throw new SessionError(
        'SESSION_FORK_CUT_INVALID',
        `seq ${params.atSeq} is not inside a closed turn of ${source}`,
      );
    const id = SessionId(`fork-${randomUUID()}`);
    const fresh = newSessionHeader({
      id,
      ...defined({ cwd: observation.header.cwd }),
    });
    const plan = planFork(source, observation.events, cut, {
      id,
      createdAt: fresh.createdAt,
      ...defined({ cwd: fresh.cwd, agentPreset: observation.header.agentPreset }),
    });
    await services.persistence.create({ header: plan.header, inheritedEvents: plan.events });
    return { id };
  } finally {
    observation.dispose();
  }
}
