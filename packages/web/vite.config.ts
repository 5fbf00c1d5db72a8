import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// Built into packages/web/dist, which `strand serve` serves as static files beside `/rpc`.
export default defineConfig({
  root: import.meta.dirname,
  // Absolute asset URLs: the page is also served at /sessions/<id>, where './assets' would miss.
  base: '/',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 2000 },
});
