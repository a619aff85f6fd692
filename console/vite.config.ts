import preact from '@preact/preset-vite';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The console is built into dist/console, which `urnbase serve` serves at `/` (src/api/console.ts).
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  plugins: [preact()],
  build: {
    outDir: fileURLToPath(new URL('../dist/console', import.meta.url)),
    emptyOutDir: true,
    // No inline scripts or styles: the page is served with a strict Content-Security-Policy.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
});
