import {
  assertWritableSession,
  SessionId,
  type Session,
  type SessionEventInput,
  defined,
} from '@strand/session';
import { HostError } from '../errors.js';
import type { AgentPort } from '../ports.js';
import type { HostServices } from '../services.js';
import { requireListedModel, requireListedPreset } from './catalog-checks.js';

/**
 * The only wire writes. Each appends its event through the live session. On a cold ordinary
 * session the agent port publishes it (writing any crash repairs) and holds it while the event is
 * appended: every command and prompt on one session goes through that one publication, so any mix
 * of them takes effect in some order instead of refusing each other. Commands on a subagent child
 * are refused: only its parent drives it; commands on an imported session (a header `source`) are
 * refused `SESSION_READ_ONLY`: the other harness owns it. With several hosts on one database, a
 * write to a cold session holds this host's lease while it runs.
 */
export async function appendCommand(
  services: HostServices,
  rawId: string,
  event: SessionEventInput,
  signal: AbortSignal,
  /** Refuses the command (nothing appended) after the session itself was checked. */
  check?: () => Promise<void>,
): Promise<{ seq: number }> {
  const id = SessionId(rawId);
  await refuseChild(services, id, signal);
  await check?.();
  const live = services.store.get(id);
  if (live !== undefined) return { seq: await appendOne(live, event) };
  if (services.agents !== undefined)
    return { seq: await services.agents.withLiveSession(id, (session) => appendOne(session, event), signal) };
  return { seq: await publishedWithoutAgents(services, id, signal, (session) => appendOne(session, event)) };
}

/** Cold writes of a host without agents, one at a time per session (each publication reserves it). */
const coldWrites = new WeakMap<HostServices, Map<SessionId, Promise<unknown>>>();

async function publishedWithoutAgents<T>(
  services: HostServices,
  id: SessionId,
  signal: AbortSignal,
  work: (session: Session) => Promise<T>,
): Promise<T> {
  let queue = coldWrites.get(services);
  if (queue === undefined) coldWrites.set(services, (queue = new Map<SessionId, Promise<unknown>>()));
  const before = queue.get(id) ?? Promise.resolve();
  const mine = before.then(
    () => writeCold(services, id, signal, work),
    () => writeCold(services, id, signal, work),
  );
  const tail = mine.catch(() => undefined);
  queue.set(id, tail);
  try {
    return await mine;
  } finally {
    if (queue.get(id) === tail) queue.delete(id);
  }
}

async function writeCold<T>(
  services: HostServices,
  id: SessionId,
  signal: AbortSignal,
  work: (session: Session) => Promise<T>,
): Promise<T> {
  const live = services.store.get(id);
  if (live !== undefined) return work(live);
  // Another host may run an agent on it: writing needs the lease (refused SESSION_OWNED_ELSEWHERE).
  const coordination = services.coordination;
  await coordination?.acquire(id);
  try {
    const reservation = await services.preparations.reserve(id, { signal });
    const session = await reservation.publish(services.store);
    try {
      return await work(session);
    } finally {
      services.store.detach(session);
    }
  } finally {
    // A release that fails leaves the lease to expire (ttl); the write itself stands.
    await coordination?.release(id).catch(() => undefined);
  }
}

export async function promptCommand(
  services: HostServices,
  rawId: string,
  text: string,
  signal: AbortSignal,
): Promise<{ accepted: true }> {
  const id = SessionId(rawId);
  await refuseChild(services, id, signal);
  await requireAgents(services).prompt(id, text);
  return { accepted: true };
}

export async function cancelCommand(
  services: HostServices,
  rawId: string,
  signal: AbortSignal,
): Promise<{ cancelled: boolean }> {
  const id = SessionId(rawId);
  await refuseChild(services, id, signal);
  return { cancelled: await requireAgents(services).cancel(id) };
}

export async function createCommand(
  services: HostServices,
  params: {
    cwd?: string | undefined;
    model?: { provider: string; model: string; reasoningEffort?: string | undefined } | undefined;
    preset?: string | undefined;
    prompt?: string | undefined;
  },
): Promise<{ id: string }> {
  const agents = requireAgents(services);
  // Checked before the session exists: a refused create leaves nothing behind.
  if (params.model !== undefined) await requireListedModel(services, params.model);
  if (params.preset !== undefined) await requireListedPreset(services, params.preset);
  const model =
    params.model === undefined
      ? undefined
      : {
          provider: params.model.provider,
          model: params.model.model,
          ...defined({ reasoningEffort: params.model.reasoningEffort }),
        };
  const session = await agents.createSession({
    ...defined({ cwd: params.cwd, model, preset: params.preset }),
  });
  if (params.prompt !== undefined) await agents.prompt(session.id, params.prompt);
  return { id: session.id };
}

async function appendOne(session: Session, event: SessionEventInput): Promise<number> {
  const [appended] = await session.append(event);
  return appended!.seq;
}

function requireAgents(services: HostServices): AgentPort {
  if (services.agents === undefined)
    throw new HostError('HOST_AGENTS_UNAVAILABLE', 'this host runs no agents');
  return services.agents;
}

async function refuseChild(services: HostServices, id: SessionId, signal: AbortSignal): Promise<void> {
  const header = services.store.get(id)?.header ?? (await headerOf(services, id, signal));
  // Another harness owns an imported session: every command that appends is refused, for every client.
  assertWritableSession(header);
  if (header.origin === 'subagent') {
    throw new HostError(
      'HOST_CHILD_SESSION_READ_ONLY',
      `session ${id} is a subagent child: only its parent drives it`,
      { sessionId: id },
    );
  }
}

async function headerOf(
  services: HostServices,
  id: SessionId,
  signal: AbortSignal,
): Promise<Session['header']> {
  const observation = await services.query.observeSession(id, {
    projectionMode: 'none',
    window: { last: 0 },
    signal,
  });
  try {
    return observation.header;
  } finally {
    observation.dispose();
  }
}
