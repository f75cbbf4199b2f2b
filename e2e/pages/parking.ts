import type { Page } from '@playwright/test';
import { domainPage } from './domain.ts';

/** The parking panel on /domains/:domain (its Forwarding and parking tab) and its confirmation dialog. */
export function parkingPanel(page: Page) {
  const panel = page.getByRole('region', { name: 'Parking' });
  const dialog = page.getByRole('dialog');
  return {
    panel,
    dialog,
    /** Shows the tab the panel is in. */
    open: () => domainPage(page).show('Forwarding and parking'),
    toggle: panel.getByRole('switch', { name: 'Park this domain' }),
    state: panel.getByRole('status').filter({ hasText: /arked/ }),
    replace: dialog.getByRole('radio', { name: /^Replace them/ }),
    keep: dialog.getByRole('radio', { name: /^Keep them/ }),
    confirmPark: dialog.getByRole('button', { name: 'Park domain' }),
    confirmUnpark: dialog.getByRole('button', { name: 'Stop parking' }),
  };
}
