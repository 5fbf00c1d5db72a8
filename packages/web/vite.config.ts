import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// Built into packages/web/dist, which `strand serve` serves as static files beside `/rpc`.
export default defineConfig({
  root: import.meta.dirname,
  base: './',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 2000 },
});
