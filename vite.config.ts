import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { fileURLToPath } from 'node:url';
import { cspPlugin } from './scripts/csp-plugin.ts';

export default defineConfig({
  plugins: [react(), tailwindcss(), cspPlugin()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  server: { port: Number(process.env.DASHBOARD_PORT ?? 5173), strictPort: true, host: '127.0.0.1' },
  preview: { port: Number(process.env.DASHBOARD_PORT ?? 5173), strictPort: true, host: '127.0.0.1' },
});
