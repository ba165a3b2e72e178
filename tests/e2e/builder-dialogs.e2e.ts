import type { NormalizedPage } from '@pagewright/shared';
import { startFixtureSite, type FixtureSite } from '../fixtures/site/server.js';
import { createConfirmedUser } from '../support/accounts.js';
import { api, apiUrl, card, confirm, dialog, mailUrl, pickAndOpen } from './builder-page.js';
import { expect, openSignedIn, test } from './fixtures.js';

/**
 * The builder dialogs in real Chromium against the live page: mask previews read the picked
 * element through the API, the time-zone list loads, CodeMirror shows a syntax error, and Edit
 * sequence applies the §5 rules. (builder.e2e.ts records whole flows through the same dialogs.)
 */

const ROW1 = '#statement-rows > tr:nth-of-type(1)';

let site: FixtureSite;
test.beforeAll(async () => {
  site = await startFixtureSite();
});
test.afterAll(async () => {
  await site?.close();
});

test('mask previews, time zones, script syntax and Edit sequence on a live page', async ({ page }) => {
  test.setTimeout(240_000);
  const user = await createConfirmedUser(apiUrl(), mailUrl(), 'dialogs-e2e');
  await openSignedIn(page, user);
  await expect(page).toHaveURL(/\/dashboard$/);
  const { id } = await api<{ id: string }>(user.accessToken, '/extractor/start', {
    method: 'POST',
    body: { name: 'Dialogs', description: 'Builder dialogs (e2e)', extractorType: 'EXTRACTOR' },
  });
  await page.goto(`/extractor?id=${id}`);
  await expect(page.getByRole('heading', { name: 'Dialogs' })).toBeVisible();

  await page.getByRole('menuitem', { name: 'Navigate', exact: true }).click();
  await expect(dialog(page).getByLabel('URL')).toBeFocused();
  await dialog(page).getByLabel('URL').fill('not a url');
  await dialog(page).getByLabel('URL').press('Enter');
  await expect(dialog(page).getByText('Invalid URL')).toBeVisible();
  await dialog(page).getByLabel('URL').fill(`${site.url}/pages/table.html`);
  await confirm(page, 10);

  // Get number: the preview reads the amount cell with the mask as it is typed.
  await pickAndOpen(page, user.accessToken, 'EXTRACTOR', 'Get number', `${ROW1} > td:nth-of-type(2)`);
  const preview = dialog(page).getByRole('status', { name: 'Preview' });
  await dialog(page).getByLabel('Positive prefix').fill('$');
  await expect(dialog(page).getByLabel('Positive suffix')).toBeDisabled();
  await expect(preview).toHaveText('The page shows “$1,234.50”, read as 1234.5', { timeout: 20_000 });
  await dialog(page).getByLabel('Decimal separator').fill('');
  await expect(dialog(page).getByLabel('Decimal separator')).toHaveValue('');
  await dialog(page).getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog(page).getByText('Required')).toBeVisible();
  await dialog(page).getByLabel('Decimal separator').fill('.');
  await confirm(page, 20);

  // Get date: the default mask and Etc/GMT0, then another zone from the server's list.
  await pickAndOpen(page, user.accessToken, 'EXTRACTOR', 'Get date', `${ROW1} > td:nth-of-type(3)`);
  await expect(dialog(page).getByLabel('Time zone')).toHaveValue('Etc/GMT0');
  await expect(dialog(page).getByRole('status', { name: 'Preview' })).toHaveText(
    /“03\/14\/2025”, read as 2025-03-14T00:00:00/,
    { timeout: 20_000 },
  );
  await dialog(page).getByLabel('Time zone').fill('Europe/Par');
  await page.getByRole('option', { name: 'Europe/Paris' }).click();
  await expect(dialog(page).getByRole('status', { name: 'Preview' })).toHaveText(
    /read as 2025-03-13T23:00:00/,
    { timeout: 20_000 },
  );
  await confirm(page, 30);

  // Script: a syntax error shows under the editor and with a lint mark; nothing is sent.
  await page.getByRole('menuitem', { name: 'Script', exact: true }).click();
  const editor = dialog(page).getByRole('textbox', { name: 'Script code' });
  await expect(editor).toContainText('return element ?');
  await editor.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('return (1 +;');
  await expect(dialog(page).getByRole('alert')).toHaveText('SyntaxError: Unexpected token (1:11)');
  await expect(dialog(page).locator('.cm-lintRange-error')).toBeVisible();
  await dialog(page).getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog(page)).toBeVisible();
  await expect(card(page, 40)).toHaveCount(0);
  await dialog(page).getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog(page)).toHaveCount(0);

  // Edit sequence: the first action stays, a used or lower sequence is refused, a free one moves.
  await page.getByRole('button', { name: 'Actions of step 30' }).click();
  await page.getByRole('menuitem', { name: 'Edit sequence' }).click();
  const sequenceDialog = page.getByRole('dialog', { name: 'Edit sequence' });
  await sequenceDialog.getByLabel('New sequence').fill('20');
  await sequenceDialog.getByLabel('New sequence').press('Enter');
  await expect(sequenceDialog.getByText('Invalid Value')).toBeVisible();
  await sequenceDialog.getByLabel('New sequence').fill('15');
  await sequenceDialog.getByLabel('New sequence').press('Enter');
  await expect(card(page, 15)).toBeVisible({ timeout: 30_000 });
  await expect(card(page, 30)).toHaveCount(0);

  // Select option: the picked list's own options are offered, and the chosen one is selected.
  await page.getByRole('menuitem', { name: 'Navigate', exact: true }).click();
  await dialog(page).getByLabel('URL').fill(`${site.url}/pages/select.html`);
  await confirm(page, 30);
  await pickAndOpen(page, user.accessToken, 'EXTRACTOR', 'Select option', '#plan');
  await dialog(page).getByRole('combobox', { name: 'Option' }).click();
  await expect(page.getByRole('option')).toHaveText(['Choose…', 'Basic', 'Pro', 'Enterprise']);
  await page.getByRole('option', { name: 'Pro', exact: true }).click();
  await confirm(page, 40);
  // The live page now shows the choice (read from the page's element areas).
  await expect
    .poll(async () => {
      const current = await api<NormalizedPage>(
        user.accessToken,
        '/extractor/normalized/current?extractorType=EXTRACTOR',
      );
      return current.areas.find((area) => area.selector === '#plan-result')?.textContent;
    })
    .toBe('Selected: Pro');
});
