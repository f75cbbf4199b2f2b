import { existsSync } from 'node:fs';

/**
 * Where Playwright's Chromium comes from: CHROMIUM_PATH when set, else Debian's /usr/bin/chromium,
 * else Playwright's own download (which only a machine with internet can install).
 */
export async function findBrowser(): Promise<{ path?: string; source: string } | { error: string }> {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) {
    return existsSync(configured)
      ? { path: configured, source: 'CHROMIUM_PATH' }
      : { error: `CHROMIUM_PATH is set to ${configured}, but no file is there.` };
  }
  if (existsSync('/usr/bin/chromium')) return { path: '/usr/bin/chromium', source: "Debian's chromium" };
  try {
    const { chromium } = await import('@playwright/test');
    const own = chromium.executablePath();
    if (own && existsSync(own)) return { source: "Playwright's own Chromium" };
  } catch {
    // fall through to the explanation
  }
  return {
    error: [
      'No Chromium found for the browser tests. Any one of these fixes it:',
      '  - Debian/Ubuntu: sudo apt-get install -y chromium   (gives /usr/bin/chromium)',
      '  - set CHROMIUM_PATH=/path/to/chrome-or-chromium',
      '  - with internet access: npx playwright install chromium',
    ].join('\n'),
  };
}
