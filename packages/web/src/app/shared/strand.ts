import { defined } from '@strand/session';
import {
  ProjectionStore,
  SessionFollower,
  StrandConnection,
  createModelCatalog,
  createPresetCatalog,
  type ModelCatalog,
  type PresetCatalog,
} from '@strand/client';
import { dropTokenFromAddressBar } from './access.js';
import { ImageCache } from './image-cache.js';
import { SubagentChanges } from './subagent-changes.js';

/**
 * Events a session view opens with: the tail, about three screens of transcript. The first paint
 * renders only these, however long the session (older pages load as the reader scrolls up), so it
 * costs the same for 50 events as for 50,000.
 */
export const FIRST_WINDOW = 100;

/** What the loaded images of one page may hold (data URLs, about 4/3 of the image bytes). */
export const IMAGE_CACHE_BYTES = 64 * 1024 * 1024;

/** Everything the UI talks to: one connection, one shared projection store, the two catalogs. */
export interface Strand {
  readonly connection: StrandConnection;
  readonly store: ProjectionStore;
  readonly models: ModelCatalog;
  readonly presets: PresetCatalog;
  /** What every follower made by `newFollower` hears of its session's subagents. */
  readonly subagentChanges: SubagentChanges;
  /** Attachment images read so far, least recently shown dropped first past `IMAGE_CACHE_BYTES`. */
  readonly images: ImageCache;
  newFollower(): SessionFollower;
}

/**
 * `ws(s)://<host>/rpc` of the page's own origin, with `?token=` carried over from the page URL
 * when it is still there (a page the host served has it in its cookie instead: the host
 * redirected the `?token=` load).
 */
export function rpcUrlFrom(location: Pick<Location, 'protocol' | 'host' | 'search'>): {
  url: string;
  token?: string;
} {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const token = new URLSearchParams(location.search).get('token');
  return { url: `${scheme}://${location.host}/rpc`, ...(token === null || token === '' ? {} : { token }) };
}

export function createStrand(): Strand {
  const { url, token } = rpcUrlFrom(window.location);
  dropTokenFromAddressBar(window.location, window.history);
  const connection = new StrandConnection({ url, WebSocket, ...defined({ token }) });
  const store = new ProjectionStore();
  const models = createModelCatalog(connection);
  const presets = createPresetCatalog(connection);
  const refreshCatalogs = (): void => {
    void models.refresh();
    void presets.refresh();
  };
  refreshCatalogs();
  // A catalog that failed while the host was away loads again once the connection is back.
  connection.onStateChange((state) => {
    if (state === 'open' && (models.state.status === 'error' || presets.state.status === 'error'))
      refreshCatalogs();
  });
  const subagentChanges = new SubagentChanges();
  return {
    connection,
    store,
    models,
    presets,
    subagentChanges,
    images: new ImageCache(IMAGE_CACHE_BYTES),
    newFollower: () => {
      const follower = new SessionFollower({ connection, store, window: FIRST_WINDOW });
      // Lives as long as the follower: an unfollowed one hears no more frames.
      follower.onSubagents((sessionId) => subagentChanges.announce(sessionId));
      return follower;
    },
  };
}
