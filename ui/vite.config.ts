import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The SPA is served by tuner-service under /ui/ (history-API fallback there); assets go to target/classes so the
// Maven jar carries them under META-INF/resources/ui/.
export default defineConfig({
  base: '/ui/',
  plugins: [react()],
  build: {
    outDir: process.env.SLUICE_UI_OUT ?? 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1200,
  },
  server: {
    proxy: { '/api': process.env.SLUICE_API ?? 'http://127.0.0.1:19094' },
  },
  test: {
    environment: 'jsdom',
    globals: true,
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/testSetup.ts'],
    testTimeout: 30_000,
  },
});
