import type { Page } from '@playwright/test';
import { test, expect } from './support/fixtures.ts';
import { searchPage } from './pages/search.ts';

/**
 * The home page arrives rendered (the build pre-renders it from the app's own components) and React takes over that
 * markup instead of painting it again: the first paint is the page and stays. A visit the pre-render does not fit (a
 * dark theme) renders afresh and works the same. Neither may leave an error or a hydration warning in the console.
 */
function consoleProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  return problems;
}

/** Remembers the first <main> the document ever holds, as the HTML parser builds it. */
function rememberFirstMain() {
  const w = window as unknown as { firstMain?: Element };
  new MutationObserver((_, observer) => {
    const main = document.querySelector('main');
    if (!main) return;
    w.firstMain = main;
    observer.disconnect();
  }).observe(document, { childList: true, subtree: true });
}

const free = `hydrated-${Date.now().toString(36)}.com`;

test('the pre-rendered home page is hydrated: its first paint stays, and it answers a search', async ({ page }) => {
  const problems = consoleProblems(page);
  const html = await (await page.request.get('/')).text();
  expect(html, 'the page as served holds the search form').toMatch(/<div id="root">.*Find a domain.*Domain name/s);
  // The first paint waits on nothing but the document, which holds its stylesheet: the scripts are asked for after it.
  expect(html, 'no script requested by the parser').not.toMatch(/<link rel="modulepreload"|<script type="module"|<script [^>]*src=/);
  expect(html, 'no stylesheet requested by the parser').not.toMatch(/<link rel="stylesheet"/);
  expect(html, 'the stylesheet is in the page').toMatch(/<style>[^<]*\.sr-only\{/);
  // The entry opens with V8's compile hint, so hydration's functions are compiled off the main thread as it streams in.
  const entry = /s\.src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
  expect(entry, 'the loader names the entry').toBeDefined();
  expect((await (await page.request.get(entry!)).text()).split('\n')[0], 'the first line of the entry').toBe('//# allFunctionsCalledOnLoad');

  await page.addInitScript(rememberFirstMain);
  await page.goto('/');
  const search = searchPage(page);
  // Read-only until React has taken the markup over, so what is typed is never lost.
  await expect(search.box).toBeEditable();
  expect(await page.evaluate(() => document.querySelector('main') === (window as unknown as { firstMain?: Element }).firstMain)).toBe(true);

  await search.search(free);
  await expect(search.exact.getByRole('listitem', { name: free })).toContainText('Available');
  expect(problems).toEqual([]);
});

test('a visit the pre-render does not fit (dark theme) renders afresh and works', async ({ page }) => {
  const problems = consoleProblems(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Switch to light theme' }).first()).toBeVisible();
  const search = searchPage(page);
  await search.search(free);
  await expect(search.exact.getByRole('listitem', { name: free })).toContainText('Available');
  expect(problems).toEqual([]);
});
