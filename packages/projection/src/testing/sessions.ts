import {
  Session,
  SessionId,
  type SessionEvent,
  type SessionEventInput,
  type SessionHeader,
} from '@strand/session';
import type { ProjectionUnit } from '../types.js';
import { header } from './events.js';

/** Appends `inputs` to a live session in batches of the given sizes, cycling through them. */
export async function appendInBatches(
  session: Session,
  inputs: readonly SessionEventInput[],
  sizes: readonly number[],
): Promise<void> {
  for (let at = 0, i = 0; at < inputs.length; i++) {
    const size = sizes[i % sizes.length]!;
    await session.append(inputs.slice(at, at + size));
    at += size;
  }
}

/** A live session that counts reads of its in-memory log, to prove snapshots never touch it. */
export class CountingSession extends Session {
  eventReads = 0;
  override get events(): readonly SessionEvent[] {
    this.eventReads++;
    return super.events;
  }
}

export function liveSession(id = 's1', agentPreset?: string | null): CountingSession {
  return new CountingSession({ header: { ...header(agentPreset), id: SessionId(id) } });
}

/** Counts `test/tick` events. */
export const tickCounter: ProjectionUnit<number, number, 'test/ticks'> = {
  key: 'test/ticks',
  stateVersion: 1,
  init: () => 0,
  apply: (state, event) => (event.type === 'test/tick' ? state + 1 : state),
  view: (state) => state,
};

/** State changes on every tick, but the view saturates at 1: only the first tick changes the value. */
export const saturating: ProjectionUnit<number, number, 'test/saturating'> = {
  key: 'test/saturating',
  stateVersion: 1,
  init: () => 0,
  apply: (state, event) => (event.type === 'test/tick' ? state + 1 : state),
  view: (state) => Math.min(state, 1),
};

/** Breaks the contract: `apply` throws on `test/boom`. */
export const bomb: ProjectionUnit<number, number, 'test/bomb'> = {
  key: 'test/bomb',
  stateVersion: 1,
  init: () => 0,
  apply: (state, event) => {
    if (event.type === 'test/boom') throw new TypeError('boom');
    return state;
  },
  view: (state) => state,
};

/** Breaks the contract: `view` throws once the state saw a `test/poison`. */
export const poisonedView: ProjectionUnit<{ poisoned: boolean }, string, 'test/poisoned-view'> = {
  key: 'test/poisoned-view',
  stateVersion: 1,
  init: () => ({ poisoned: false }),
  apply: (state, event) => (event.type === 'test/poison' ? { poisoned: true } : state),
  view: (state) => {
    if (state.poisoned) throw new RangeError('cannot view');
    return 'fine';
  },
};

/**
 * A stand-in for a live `Session` that accepts any events, corrupt core data included (a real
 * session validates core data on append), so live folds can be tested on the same random logs
 * as cold folds. It implements only what the registry uses.
 */
export class ScriptedSession {
  readonly header: SessionHeader;
  readonly events: SessionEvent[] = [];
  readonly #listeners = new Set<(batch: readonly SessionEvent[]) => void>();

  constructor(h: SessionHeader) {
    this.header = h;
  }

  get id(): SessionId {
    return this.header.id;
  }

  subscribe(listener: (batch: readonly SessionEvent[]) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  push(batch: readonly SessionEvent[]): void {
    this.events.push(...batch);
    for (const listener of this.#listeners) listener(batch);
  }

  asSession(): Session {
    return this as unknown as Session;
  }
}
