import { describe, expect, it } from 'vitest';
import viteConfig from '../vite.config.ts';
import { loadConfig } from '../server/config.ts';

// `npm run dev` + `npm run service` started alone must agree on the host a sign-in message names
// (scripts/start.ts passes the dashboard's host to the service explicitly).
describe('one local host', () => {
  it("the service's default SIWE host is where `npm run dev` serves the dashboard", () => {
    const server = (viteConfig as { server: { host: string; port: number } }).server;
    expect(loadConfig({}).SIWE_DOMAIN).toBe(`${server.host}:${process.env.DASHBOARD_PORT ? 5173 : server.port}`);
    expect(loadConfig({}).SIWE_DOMAIN).toBe('127.0.0.1:5173');
  });
});
