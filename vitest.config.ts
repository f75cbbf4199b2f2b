import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

// Unit and service tests live beside the code, the fuzz and kill -9 suites in test/; browser journeys (e2e/) belong to Playwright.
export default defineConfig({
  plugins: [react()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'server/**/*.test.ts', 'scripts/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two files at a time on two cores (Vitest's default is one fewer than the cores): a service test spends most
    // of its time waiting for its service, chain or name server, so two at once finish sooner than one after the other.
    maxWorkers: 2,
  },
});
