import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { fileURLToPath } from 'node:url';
import { cspPlugin } from './scripts/csp-plugin.ts';
import { prerenderPlugin } from './scripts/prerender-plugin.ts';

export default defineConfig({
  // The pre-render runs before the CSP plugin, which then hashes every inline script the page ends up with.
  plugins: [react(), tailwindcss(), prerenderPlugin(), cspPlugin()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  server: { port: Number(process.env.DASHBOARD_PORT ?? 5173), strictPort: true, host: '127.0.0.1' },
  build: {
    rolldownOptions: {
      treeshake: {
        // The project's own modules do nothing when imported but define things (its only bare imports are CSS), so a
        // module none of whose exports is used can go: a barrel such as ui/index.ts no longer drags every component,
        // or a schema module zod, into the first page.
        moduleSideEffects: (id, external) => (!external && /\/src\/.*\.tsx?$/.test(id) && !id.includes('/node_modules/') ? false : undefined),
      },
    },
  },
  preview: { port: Number(process.env.DASHBOARD_PORT ?? 5173), strictPort: true, host: '127.0.0.1' },
});
