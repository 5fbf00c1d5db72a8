import { SessionId } from '@strand/session';
import type { HostServices } from '../services.js';
import type { HeaderOf } from './share-scope.js';

const NO_DATA: ReadonlySet<string> = new Set();

/**
 * A session's header for the share checks: the live one when attached, else the stored log's
 * (a scan that parses no event data). Anything unreadable is undefined: not covered.
 */
export function headerReader(services: Pick<HostServices, 'store' | 'persistence'>): HeaderOf {
  return async (raw) => {
    try {
      const id = SessionId(raw);
      const live = services.store.get(id);
      if (live !== undefined) return live.header;
      return (await services.persistence.scan(id, { dataTypes: NO_DATA })).header;
    } catch {
      // Not a session id, not stored, or unreadable: the share connection learns nothing of it.
      return undefined;
    }
  };
}
