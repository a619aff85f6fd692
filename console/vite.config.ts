import preact from '@preact/preset-vite';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const page = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * GraphiQL's stylesheet embeds its fonts (Roboto, Fira Code) as `data:` URLs, which the CSP's
 * `default-src 'self'` refuses (each one a violation); their rules go, and its font stacks fall
 * back to the system's sans-serif and monospace. It also makes the stylesheet 360 kB lighter.
 */
function noDataFonts(): Plugin {
  return {
    name: 'urnbase-no-data-fonts',
    enforce: 'pre',
    transform(code, id) {
      if (!/graphiql.*\.css$/.test(id) || !code.includes('@font-face')) return undefined;
      return { code: code.replace(/@font-face\s*\{[^}]*url\(\s*["']?data:[^}]*\}/g, ''), map: null };
    },
  };
}

// The console is built into dist/console, which `urnbase serve` serves at `/` (src/api/console.ts).
export default defineConfig({
  root: page('.'),
  base: '/',
  // GraphiQL (graphiql/) is React's: `react` stays React rather than preact/compat.
  plugins: [preact({ reactAliasesEnabled: false }), noDataFonts()],
  // No `<style>` elements from GraphiQL's dialogs: see src/graphiql/style-singleton.ts.
  resolve: { alias: { 'react-style-singleton': page('src/graphiql/style-singleton.ts') } },
  build: {
    outDir: page('../dist/console'),
    emptyOutDir: true,
    // No inline scripts or styles: the page is served with a strict Content-Security-Policy.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    // GraphiQL is one chunk of about 1 MB, loaded by its page only.
    chunkSizeWarningLimit: 1200,
    rolldownOptions: {
      input: { console: page('index.html'), graphiql: page('graphiql/index.html') },
      // react-compiler-runtime's "use no memo" directive means nothing in a bundle.
      checks: { moduleLevelDirective: false },
    },
  },
});
