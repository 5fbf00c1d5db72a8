import { describe, expect, it } from 'vitest';
import { Session, SessionId, SessionStore, newSessionHeader } from '@strand/session';
import { recheckLive } from './live-recheck.js';

const id = SessionId('recheck-1');
const session = (): Session => new Session({ header: newSessionHeader({ id, createdAt: 1_000 }) });

describe('recheckLive: live wins after every await', () => {
  it('is current when the store still holds what the resolution chose (cold or live)', async () => {
    const store = new SessionStore();
    await expect(recheckLive(store, id, undefined, undefined, undefined)).resolves.toBe('current');
    const live = session();
    store.attach(live);
    await expect(recheckLive(store, id, live, () => Promise.resolve(), undefined)).resolves.toBe('current');
  });

  it('retries a cold cut when a session attached during the await', async () => {
    const store = new SessionStore();
    const attach = (): void => store.attach(session());
    await expect(recheckLive(store, id, undefined, attach, undefined)).resolves.toBe('retry');
  });

  it('retries a live cut whose session detached or was replaced during the await', async () => {
    const store = new SessionStore();
    const live = session();
    store.attach(live);
    await expect(recheckLive(store, id, live, () => void store.detach(live), undefined)).resolves.toBe(
      'retry',
    );
    store.attach(session()); // another session under the same id
    await expect(recheckLive(store, id, live, undefined, undefined)).resolves.toBe('retry');
  });

  it('reads the store after the hook settled, not before it', async () => {
    const store = new SessionStore();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const pending = recheckLive(store, id, undefined, () => gate, undefined);
    store.attach(session()); // while the hook's await is still pending
    release();
    await expect(pending).resolves.toBe('retry');
  });

  it('an abort during the await wins over the re-check, with the typed code', async () => {
    const store = new SessionStore();
    const controller = new AbortController();
    const abort = (): void => controller.abort(new Error('user left'));
    await expect(recheckLive(store, id, undefined, abort, controller.signal)).rejects.toMatchObject({
      code: 'SESSION_QUERY_ABORTED',
      sessionId: id,
    });
  });
});
