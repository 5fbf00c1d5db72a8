import type { SessionEvent, SessionId } from '@strand/session';
import { PersistenceError } from '@strand/persistence';
import { DelegatingPersistence } from './delegating-persistence.js';

/**
 * What happens to one append (counted from 1 across every session):
 * - `fail`: rejects without writing, as a full or failing disk does (`PERSISTENCE_IO`-like);
 * - `hang`: never settles and writes nothing;
 * - `write-then-hang`: writes durably, then never acknowledges — the window a crash between the
 *   fsync and the acknowledgement leaves.
 */
export type AppendFault = 'fail' | 'hang' | 'write-then-hang';

/**
 * The error an injected failure rejects with: what a real backend throws when the disk fails
 * (`PERSISTENCE_IO`, caused by an `EIO` from the OS).
 */
export function injectedWriteError(ordinal: number, id: SessionId): PersistenceError {
  const os = Object.assign(new Error(`EIO: i/o error, write (injected into append #${ordinal})`), {
    code: 'EIO',
  });
  return new PersistenceError('PERSISTENCE_IO', `durable write to session ${id} failed`, {
    cause: os,
    sessionId: id,
  });
}

/** Which fault (if any) the `ordinal`-th append (from 1) to session `id` meets. */
export type FaultPlan = (
  ordinal: number,
  id: SessionId,
  events: readonly SessionEvent[],
) => AppendFault | undefined;

/**
 * A real persistence with faults injected at the writer: the appends the plan names fail, hang,
 * or write and then hang; every other call passes through. `onFault` hears each injected fault
 * once it has happened (for `write-then-hang`: once the write is durable).
 */
export class FaultyPersistence extends DelegatingPersistence {
  readonly #plan: FaultPlan;
  readonly #onFault: (fault: AppendFault, ordinal: number, id: SessionId) => void;
  appends = 0;

  constructor(
    inner: ConstructorParameters<typeof DelegatingPersistence>[0],
    plan: FaultPlan,
    onFault: (fault: AppendFault, ordinal: number, id: SessionId) => void = () => undefined,
  ) {
    super(inner);
    this.#plan = plan;
    this.#onFault = onFault;
  }

  override append(id: SessionId, events: readonly SessionEvent[]): Promise<{ readonly revision: string }> {
    const ordinal = ++this.appends;
    const fault = this.#plan(ordinal, id, events);
    switch (fault) {
      case undefined:
        return this.inner.append(id, events);
      case 'fail':
        this.#onFault(fault, ordinal, id);
        return Promise.reject(injectedWriteError(ordinal, id));
      case 'hang':
        this.#onFault(fault, ordinal, id);
        return new Promise(() => undefined);
      case 'write-then-hang':
        return this.inner.append(id, events).then(() => {
          this.#onFault(fault, ordinal, id);
          return new Promise(() => undefined);
        });
      default:
        return fault satisfies never;
    }
  }
}
