import type { Page } from '@playwright/test';

/** The domains workbench's selection and bulk panel on /domains. */
export function bulkPanel(page: Page) {
  return {
    rowBox: (domain: string) => page.getByRole('checkbox', { name: `Select ${domain}` }),
    listStatus: page.getByRole('status').filter({ hasText: / of \d+ domains?/ }),
    action: page.getByRole('combobox', { name: /^Do with the \d+ selected/ }),
    template: page.getByRole('combobox', { name: 'Template' }),
    review: page.getByRole('button', { name: 'Review the plan' }),
    plan: page.getByRole('list', { name: 'Plan per domain' }),
    planFor: (domain: string) => page.getByRole('list', { name: 'Plan per domain' }).getByRole('listitem').filter({ hasText: domain }).first(),
    sign: page.getByRole('button', { name: /^Sign \d+ changes?, one per domain/ }),
    progress: page.getByRole('progressbar'),
    results: page.getByRole('list', { name: 'Result per domain' }),
    resultFor: (domain: string) => page.getByRole('list', { name: 'Result per domain' }).getByRole('listitem').filter({ hasText: domain }).first(),
    runStatus: page.getByRole('status').filter({ hasText: /applied/ }),
    continue: page.getByRole('button', { name: /^Continue: sign the \d+ remaining/ }),
    retryFailed: page.getByRole('button', { name: 'Retry the failed ones' }),
  };
}
