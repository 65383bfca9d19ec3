import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Served by the app at /admin/ (src/admin-console): hashed assets under /admin/assets/.
export default defineConfig({
  base: '/admin/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Nothing inlined as data: URLs (the CSP allows only 'self').
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 2000,
  },
});
