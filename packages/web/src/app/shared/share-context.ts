import { createContext, useContext } from 'react';
import type { SharedGrant } from './access.js';

/**
 * The grant this page was opened with through a share link, or null for the owner's page. The
 * views read it to leave out what a share connection may not do (the host refuses it anyway):
 * the composer, the selectors, the cost, the Share dialog.
 */
export const SharedGrantContext = createContext<SharedGrant | null>(null);

export function useSharedGrant(): SharedGrant | null {
  return useContext(SharedGrantContext);
}
