// The console's bundle: served by the gateway under /console, so every asset URL starts there.
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const sdk = fileURLToPath(new URL('../../libs/sdk/src/index.ts', import.meta.url));

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/console/',
  plugins: [react()],
  resolve: { alias: { '@org-data-platform/sdk': sdk } },
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('../../dist/apps/console', import.meta.url)),
    emptyOutDir: true,
    sourcemap: false,
    reportCompressedSize: false,
    rolldownOptions: {
      // The SDK's webhook verification imports node:crypto; the console never uses it and the bundle
      // drops it (the SDK has no side effects), so the notice that it was externalized is only noise.
      onLog(level, log, handler) {
        if (log.plugin === 'rolldown:vite-resolve' && log.message.includes('"node:crypto"')) return;
        handler(level, log);
      },
    },
  },
});
