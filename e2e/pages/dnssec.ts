import type { Page } from '@playwright/test';
import { domainPage } from './domain.ts';

/** The DNSSEC panel on /domains/:domain (its DNSSEC tab) and its confirmation dialog. */
export function dnssecPanel(page: Page) {
  const panel = page.getByRole('region', { name: 'DNSSEC' });
  const dialog = page.getByRole('dialog');
  return {
    panel,
    dialog,
    /** Shows the tab the panel is in. */
    open: () => domainPage(page).show('DNSSEC'),
    toggle: panel.getByRole('switch', { name: 'Sign this zone (DNSSEC)' }),
    state: panel.getByRole('status').filter({ hasText: /signed/i }),
    confirmOn: dialog.getByRole('button', { name: 'Turn DNSSEC on' }),
    copy: (field: string) => panel.getByRole('button', { name: `Copy ${field.toLowerCase()}`, exact: true }),
    wholeRecord: panel.getByLabel('Whole DS record', { exact: true }),
    field: (label: string) => panel.locator(`dd[data-field="${label}"]`),
    chain: panel.getByTestId('dnssec-chain'),
    proof: panel.getByLabel('Proof that a name does not exist'),
    algorithm: panel.getByLabel('Algorithm', { exact: true }),
    signWith: (proof: string) => panel.getByRole('button', { name: `Sign with ${proof}` }),
    rollOverTo: (algorithm: number) => panel.getByRole('button', { name: `Roll over to algorithm ${algorithm}` }),
    confirmRollover: dialog.getByRole('button', { name: 'Start the rollover' }),
    rollover: panel.getByTestId('dnssec-rollover'),
  };
}
