import { expect, type Page } from '@playwright/test';
import { domainPage } from './domain.ts';

/** The records editor of one domain (/domains/:domain), found by role and label. */
export function recordsPage(page: Page) {
  const section = page.getByRole('region', { name: 'DNS records' });
  const dialog = page.getByRole('dialog');
  const changeSet = page.getByRole('region', { name: /Change set/ });
  return {
    section,
    dialog,
    changeSet,
    table: page.getByRole('table'),
    search: page.getByRole('searchbox', { name: 'Search records' }),
    typeFilter: page.getByRole('combobox', { name: 'Type', exact: true }).first(),
    async open(domain: string) {
      await page.goto(`/domains/${domain}`);
      // A cold load of the domain page (its overview and the records) on two busy shared cores can take a while.
      await expect(page.getByRole('heading', { name: 'DNS records' })).toBeVisible({ timeout: 30_000 });
    },
    /** Back to the Records tab from another tab of the domain page. */
    async show() {
      await domainPage(page).show('Records');
      await expect(page.getByRole('heading', { name: 'DNS records' })).toBeVisible();
    },
    row(type: string, name: string) {
      return page.getByRole('row').filter({ has: page.getByRole('button', { name: `Edit ${type} record ${name}`, exact: true }) });
    },
    /** A table row by its visible cells (also for read-only managed rows). */
    rowWith(text: string) {
      return page.getByRole('table').getByRole('row').filter({ hasText: text });
    },
    /** Opens the add form, picks the type and fills name, the type's fields and optionally the TTL. */
    async fillNew(type: string, name: string, fields: Record<string, string>, ttl?: string) {
      await page.getByRole('button', { name: 'Add record', exact: true }).first().click();
      await expect(dialog).toBeVisible();
      await dialog.getByRole('combobox', { name: 'Type', exact: true }).selectOption(type);
      await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
      for (const [label, value] of Object.entries(fields)) {
        const field = dialog.getByLabel(label, { exact: true });
        if ((await field.evaluate((el) => el.tagName)) === 'SELECT') await field.selectOption(value);
        else await field.fill(value);
      }
      if (ttl) {
        await dialog.getByRole('combobox', { name: 'TTL', exact: true }).selectOption('custom');
        await dialog.getByRole('textbox', { name: 'Custom TTL' }).fill(ttl);
      }
    },
    async addAndSign(type: string, name: string, fields: Record<string, string>, ttl?: string) {
      await this.fillNew(type, name, fields, ttl);
      await dialog.getByRole('button', { name: 'Add and sign' }).click();
      await expect(dialog).toBeHidden();
    },
    async addToChangeSet(type: string, name: string, fields: Record<string, string>) {
      await this.fillNew(type, name, fields);
      await dialog.getByRole('button', { name: 'Add to change set' }).click();
      await expect(dialog).toBeHidden();
    },
    async edit(type: string, name: string) {
      await page.getByRole('button', { name: `Edit ${type} record ${name}`, exact: true }).click();
      await expect(dialog).toBeVisible();
      return dialog;
    },
    async delete(type: string, name: string) {
      await page.getByRole('button', { name: `Delete ${type} record ${name}`, exact: true }).click();
      await expect(dialog).toBeVisible();
      return dialog;
    },
    /** Opens the zone file dialog's import tab and chooses a file holding `text`, as a person picks one from disk. */
    async chooseZoneFile(name: string, text: string) {
      await section.getByRole('button', { name: 'Import zone file' }).click();
      await dialog.getByRole('tab', { name: 'Import' }).click();
      await dialog.getByLabel('Or choose a file').setInputFiles({ name, mimeType: 'text/plain', buffer: Buffer.from(text) });
    },
    /** Opens the change set's review; answers the dialog that lists each signature before the wallet opens. */
    async reviewChangeSet() {
      await changeSet.getByRole('button', { name: 'Review and apply' }).click();
      await expect(dialog).toBeVisible();
      return dialog;
    },
    /** Signs and applies the reviewed change set with the number of signatures the review announces. */
    async signChangeSet(signatures: number) {
      await dialog.getByRole('button', { name: `Sign and apply (${signatures} signature${signatures === 1 ? '' : 's'})` }).click();
      await expect(changeSet).toBeHidden();
    },
  };
}

/** How many EIP-712 signatures the test wallet was asked for. */
export function typedSignatures(requests: string[]): number {
  return requests.filter((m) => m === 'eth_signTypedData_v4').length;
}
