import { expect } from 'vitest';
import type { PersistenceErrorCode, SessionPersistence } from '@strand/persistence';

/** One backend instance handed to a contract test; the suite disposes it when the test ends. */
export interface PersistenceUnderTest {
  readonly persistence: SessionPersistence;
  /** Closes whichever instance is current (the original or the last reopened one) and cleans up. */
  dispose(): Promise<void>;
  /**
   * Closes the current instance and opens the same storage again (a process restart). The suite
   * uses it for durability and for crash repair, which a backend may refuse on a log its own live
   * writer holds. Without it those checks run on the one instance.
   */
  reopen?(): Promise<SessionPersistence>;
}

/** What a contract test works with: the current instance, and a way to restart it. */
export interface ContractStore {
  p: SessionPersistence;
  reopen(): Promise<SessionPersistence>;
}

/** Runs one test body against a fresh, empty store and disposes it afterwards. */
export type WithStore = (body: (store: ContractStore) => Promise<void>) => Promise<void>;

export function storeRunner(open: () => Promise<PersistenceUnderTest>): WithStore {
  return async (body) => {
    const target = await open();
    const store: ContractStore = {
      p: target.persistence,
      reopen: async () => {
        if (target.reopen !== undefined) store.p = await target.reopen();
        return store.p;
      },
    };
    try {
      await body(store);
    } finally {
      await target.dispose();
    }
  };
}

/** Settles `promise` and checks it rejected with a PersistenceError of `code`. */
export async function rejectsWith(promise: Promise<unknown>, code: PersistenceErrorCode): Promise<Error> {
  const outcome = await promise.then(
    (value: unknown) => ({ value }),
    (error: unknown) => ({ error }),
  );
  expect(outcome, `expected a rejection with ${code}`).toHaveProperty('error');
  const error = (outcome as { error: unknown }).error;
  expect(error).toMatchObject({ name: 'PersistenceError', code });
  return error as Error;
}

export function isDeepFrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  return Object.isFrozen(value) && Object.values(value).every(isDeepFrozen);
}
