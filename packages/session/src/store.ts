import { SessionError } from './errors.js';
import type { SessionId } from './ids.js';
import { silentLogger, type Logger } from './logger.js';
import type { Session } from './session.js';

export type StoreChange =
  | { readonly kind: 'attached'; readonly session: Session }
  | { readonly kind: 'detached'; readonly session: Session };
export type StoreListener = (change: StoreChange) => void;

/**
 * The live sessions of this process. "Live" means attached here: a live record wins over
 * persistence for its id in every read (docs/architecture.md, rule 4).
 */
export class SessionStore {
  readonly #sessions = new Map<SessionId, Session>();
  readonly #listeners = new Set<StoreListener>();
  readonly #logger: Logger;

  /** `logger`: where a throwing listener is reported (default `silentLogger`). */
  constructor(options: { readonly logger?: Logger } = {}) {
    this.#logger = options.logger ?? silentLogger;
  }

  get(id: SessionId): Session | undefined {
    return this.#sessions.get(id);
  }

  has(id: SessionId): boolean {
    return this.#sessions.has(id);
  }

  list(): Session[] {
    return [...this.#sessions.values()];
  }

  get size(): number {
    return this.#sessions.size;
  }

  attach(session: Session): void {
    if (this.#sessions.has(session.id)) {
      throw new SessionError('SESSION_ALREADY_ATTACHED', `session ${session.id} is already attached`);
    }
    this.#sessions.set(session.id, session);
    this.#emit({ kind: 'attached', session });
  }

  /** Detaches `session` if it is the attached record for its id; returns whether it was. */
  detach(session: Session): boolean {
    if (this.#sessions.get(session.id) !== session) return false;
    this.#sessions.delete(session.id);
    this.#emit({ kind: 'detached', session });
    return true;
  }

  subscribe(listener: StoreListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #emit(change: StoreChange): void {
    for (const listener of this.#listeners) {
      try {
        listener(change);
      } catch (error) {
        // A listener's failure is its own; the attach or detach has happened either way.
        this.#logger.error('a session store listener threw', { error });
      }
    }
  }
}
