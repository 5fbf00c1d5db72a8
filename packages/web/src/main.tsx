import '@mantine/core/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { MantineProvider } from '@mantine/core';
import { App } from './app/App.js';
import { StrandContext } from './app/hooks.js';
import { createStrand } from './app/strand.js';

const strand = createStrand();
const root = document.getElementById('root');
if (root === null) throw new Error('no #root element');
createRoot(root).render(
  <StrictMode>
    <MantineProvider>
      <StrandContext.Provider value={strand}>
        <App />
      </StrandContext.Provider>
    </MantineProvider>
  </StrictMode>,
);
