import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { cspPlugin } from './scripts/csp-plugin.ts';
import { prerenderPlugin } from './scripts/prerender-plugin.ts';

/**
 * react-router's package exports only its development build; its production build differs in one constant
 * (ENABLE_DEV_WARNINGS), which lets the minifier drop the warnings from the first page. Builds only: `npm run dev`
 * keeps the warnings.
 */
function reactRouterProduction(): Plugin {
  const production = fileURLToPath(new URL('./node_modules/react-router/dist/production/index.mjs', import.meta.url));
  return {
    name: 'namefi-react-router-production',
    apply: 'build',
    enforce: 'pre',
    resolveId: (source) => (source === 'react-router' ? production : undefined),
  };
}

export default defineConfig({
  // The pre-render runs before the CSP plugin, which then hashes every inline script the page ends up with.
  plugins: [reactRouterProduction(), react(), tailwindcss(), prerenderPlugin(), cspPlugin()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  server: { port: Number(process.env.DASHBOARD_PORT ?? 5173), strictPort: true, host: '127.0.0.1' },
  build: {
    // The first page's loader adds its own modulepreload links (scripts/prerender-plugin.ts), and every browser the
    // dashboard supports knows them: the polyfill would be 0.5 kB gzip of the first page for nothing.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      treeshake: {
        // The project's own modules do nothing when imported but define things (its only bare imports are CSS), so a
        // module none of whose exports is used can go: a barrel such as ui/index.ts no longer drags every component,
        // or a schema module zod, into the first page.
        moduleSideEffects: (id, external) => (!external && /\/(src|core)\/.*\.tsx?$/.test(id) && !id.includes('/node_modules/') ? false : undefined),
      },
    },
  },
  preview: { port: Number(process.env.DASHBOARD_PORT ?? 5173), strictPort: true, host: '127.0.0.1' },
});
