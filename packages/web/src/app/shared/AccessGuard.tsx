import { useEffect, useState } from 'react';
import { checkAccess, type AccessProblem } from './access.js';
import { AccessProblemView } from './AccessProblemView.js';
import { useStrand } from './hooks.js';

/** `GET /auth` of the page's own host; the cookie goes along (same origin). */
export const fetchAuth = (): Promise<Response> => fetch('/auth', { cache: 'no-store' });

/**
 * Re-asks `/auth` when an open connection is lost: a host restarted with another token refuses
 * every reconnect, and the page should say so rather than reconnect forever. Then it stops the
 * connection, whose attempts would only spend this address's failed-token budget. A grant store
 * that could not be read (`unavailable`) passes: the connection keeps retrying until it can.
 */
export function AccessGuard({ children }: { children: React.ReactNode }): React.JSX.Element {
  const { connection } = useStrand();
  const [problem, setProblem] = useState<AccessProblem | undefined>(undefined);
  useEffect(
    () =>
      connection.onStateChange((state) => {
        if (state !== 'reconnecting') return;
        void checkAccess(fetchAuth).then((found) => {
          if (found === undefined || found.kind === 'unavailable') return;
          connection.close();
          setProblem(found);
        });
      }),
    [connection],
  );
  return problem === undefined ? <>{children}</> : <AccessProblemView problem={problem} />;
}
