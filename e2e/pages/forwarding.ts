import type { Page } from '@playwright/test';
import { domainPage } from './domain.ts';

/** The forwarding panel on /domains/:domain (its Forwarding and parking tab) and its confirmation dialog. */
export function forwardingPanel(page: Page) {
  const panel = page.getByRole('region', { name: 'Forwarding' });
  const dialog = page.getByRole('dialog');
  return {
    panel,
    dialog,
    /** Shows the tab the panel is in. */
    open: () => domainPage(page).show('Forwarding and parking'),
    state: panel.getByRole('status').filter({ hasText: /orward/ }).first(),
    target: panel.getByRole('textbox', { name: 'Send visitors to' }),
    kind: panel.getByRole('combobox', { name: 'Kind of redirect' }),
    keepPath: panel.getByRole('checkbox', { name: /Keep the path/ }),
    forward: panel.getByRole('button', { name: /Forward this domain|Change forwarding/ }),
    confirm: dialog.getByRole('button', { name: /^Sign and/ }),
    tryPath: panel.getByRole('textbox', { name: /Try a path/ }),
    tryIt: panel.getByRole('button', { name: 'Try it' }),
    location: panel.getByTestId('forwarding-location'),
  };
}
