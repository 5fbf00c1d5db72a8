import '@mantine/core/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { localStorageColorSchemeManager, MantineProvider } from '@mantine/core';
import { App } from './app/App.js';
import { readAccess } from './app/shared/access.js';
import { AccessGuard, fetchAuth } from './app/shared/AccessGuard.js';
import { AccessProblemView } from './app/shared/AccessProblemView.js';
import { StrandContext } from './app/shared/hooks.js';
import { SharedGrantContext } from './app/shared/share-context.js';
import { SharedApp } from './app/SharedApp.js';
import { createStrand } from './app/shared/strand.js';
import { COLOR_SCHEME_KEY, cssVariablesResolver, theme } from './app/shared/theme/theme.js';

/** Light or dark as the system prefers until the reader picks one (kept in local storage). */
const themed = {
  defaultColorScheme: 'auto',
  colorSchemeManager: localStorageColorSchemeManager({ key: COLOR_SCHEME_KEY }),
  cssVariablesResolver,
  theme,
} as const;

const root = document.getElementById('root');
if (root === null) throw new Error('no #root element');
const reactRoot = createRoot(root);

// Ask before connecting: a refused upgrade looks the same to a page whatever the reason, so
// without this a page lacking its token would say "connecting" forever.
// A share link's page (`/auth` says `share`) gets the shared session's view alone.
void readAccess(fetchAuth).then((access) => {
  if (access.kind === 'problem') {
    reactRoot.render(
      <StrictMode>
        <MantineProvider {...themed}>
          <AccessProblemView problem={access.problem} />
        </MantineProvider>
      </StrictMode>,
    );
    return;
  }
  const strand = createStrand();
  reactRoot.render(
    <StrictMode>
      <MantineProvider {...themed}>
        <StrandContext.Provider value={strand}>
          <SharedGrantContext.Provider value={access.kind === 'share' ? access.share : null}>
            <AccessGuard>
              {access.kind === 'share' ? <SharedApp grant={access.share} /> : <App />}
            </AccessGuard>
          </SharedGrantContext.Provider>
        </StrandContext.Provider>
      </MantineProvider>
    </StrictMode>,
  );
});
