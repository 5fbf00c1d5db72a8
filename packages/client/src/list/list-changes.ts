import { NOTIFICATIONS, type ParamsOf } from '@strand/protocol';
import type { FollowTransport } from '../follow/follow-transport.js';

/** What a list subscription tells its owner. */
export interface ListChangeHandlers {
  /** These sessions' `session.list` rows changed (distinct ids; re-read them with `session.list {ids}`). */
  readonly onChanged: (ids: readonly string[]) => void;
  /**
   * Called once per socket, after subscribing on it (or failing to: an older host): list now.
   * Changes from here on are told; those before — and while a lost socket was away — were not.
   */
  readonly onSubscribed: () => void;
}

export type ListChangeFilter = ParamsOf<'session.listSubscribe'>;

/**
 * A typed `session.listSubscribe`: `list.changed` frames of this subscription, checked against the
 * protocol's schema (a malformed one is dropped). The host forgets subscriptions with the socket, so
 * on every open this subscribes again, then calls `onSubscribed`. A subscribe that fails (an older
 * host without the method) leaves it silent until the next open. `close` unsubscribes.
 */
export class ListChanges {
  readonly #connection: FollowTransport;
  readonly #filter: ListChangeFilter;
  readonly #handlers: ListChangeHandlers;
  readonly #detach: (() => void)[];
  /** The subscription of the current socket, once its result arrived. */
  #subscriptionId: string | null = null;
  #closed = false;

  constructor(connection: FollowTransport, filter: ListChangeFilter, handlers: ListChangeHandlers) {
    this.#connection = connection;
    this.#filter = filter;
    this.#handlers = handlers;
    this.#detach = [
      connection.onNotification((notification) => {
        if (notification.method !== 'list.changed') return;
        const parsed = NOTIFICATIONS['list.changed'].safeParse(notification.params);
        if (!parsed.success || parsed.data.subscriptionId !== this.#subscriptionId) return;
        if (parsed.data.ids.length > 0) this.#handlers.onChanged(parsed.data.ids);
      }),
      connection.onStateChange((state) => {
        this.#subscriptionId = null;
        if (state === 'open') void this.#subscribe();
      }),
    ];
    if (connection.state === 'open') void this.#subscribe();
  }

  /** Ends the subscription (on the host too, when its socket is still the one it was made on). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const detach of this.#detach.splice(0)) detach();
    const id = this.#subscriptionId;
    this.#subscriptionId = null;
    if (id !== null && this.#connection.state === 'open')
      this.#connection.call('session.listUnsubscribe', { subscriptionId: id }).catch(() => undefined);
  }

  async #subscribe(): Promise<void> {
    const epoch = this.#connection.epoch;
    let subscriptionId: string | null = null;
    try {
      ({ subscriptionId } = await this.#connection.call('session.listSubscribe', this.#filter));
    } catch {
      // No changes will be told on this socket; the owner still lists once.
    }
    // A result from a socket that has since closed names a subscription the host already forgot.
    if (this.#closed || epoch !== this.#connection.epoch) return;
    this.#subscriptionId = subscriptionId;
    this.#handlers.onSubscribed();
  }
}
