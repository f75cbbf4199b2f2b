import type { Page } from '@playwright/test';

/**
 * Collects every Content-Security-Policy violation the page reports, from both sides: the browser's console
 * message ("Refused to … because it violates the following Content Security Policy directive") and the
 * `securitypolicyviolation` event, which an init script turns into a console line (it covers reports that
 * Chromium does not print, such as those from workers or report-only policies). Call before the first goto.
 */
export async function watchCspViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on('console', (message) => {
    const text = message.text();
    if (/Content Security Policy|^csp-violation /i.test(text)) violations.push(text);
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`csp-violation ${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} at ${event.sourceFile}:${event.lineNumber}`);
    });
  });
  return violations;
}
