import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { readdirSync, readFileSync } from 'node:fs';

/** The service's test files that mock modules (vi.mock): found by reading them, so a new one is never shared by mistake. */
const MOCKING_SERVICE_TESTS = ['server', 'scripts', 'test'].flatMap((dir) =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts') && !file.includes('node_modules'))
    .map((file) => `${dir}/${file}`)
    .filter((file) => /\bvi\.(mock|doMock)\(/.test(readFileSync(file, 'utf8'))),
);

// Unit and service tests live beside the code, the fuzz and kill -9 suites in test/; browser journeys (e2e/) belong to Playwright.
export default defineConfig({
  plugins: [react()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  test: {
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two files at a time on two cores (Vitest's default is one fewer than the cores): a service test spends most
    // of its time waiting for its service, chain or name server, so two at once finish sooner than one after the other.
    maxWorkers: 2,
    projects: [
      // Files that mock modules (vi.mock) need a fresh module graph each.
      { extends: true, test: { name: 'isolated', include: ['core/**/*.test.ts', 'src/**/*.test.{ts,tsx}', ...MOCKING_SERVICE_TESTS] } },
      // The service's other tests mock nothing and each starts its own service, so a worker keeps the modules it
      // imported for the next file instead of importing the service's graph again for each of ~90 files (isolate:
      // false): Vitest's import time for them fell from minutes to ~30 s.
      {
        extends: true,
        test: { name: 'service', include: ['server/**/*.test.ts', 'scripts/**/*.test.ts', 'test/**/*.test.ts', ...MOCKING_SERVICE_TESTS.map((file) => `!${file}`)], isolate: false },
      },
    ],
  },
});
