import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { MESSAGES } from '@pagewright/shared';
import { createConfirmedUser } from '../support/accounts.js';
import { statementPdf, statementValues, templateBoxes } from '../support/statement-pdfs.js';
import { apiUrl, mailUrl } from './builder-page.js';
import { GOOD_PASSWORD, expect, loginThroughUi, test } from './fixtures.js';

/**
 * Statement recognition end to end (issue 15): a template is created, its sample PDF uploaded and
 * drawn into pages, two boxes drawn with the mouse on the first page and saved; then five
 * statements are processed, the consolidated results opened and the CSV downloaded.
 */

const toast = (page: Page, text: string) => page.getByTestId('toast').filter({ hasText: text });

/** Drags a box on the editor's canvas where `templateBoxes(0)[index]` is (page fractions). */
async function drawBox(page: Page, index: number) {
  const box = templateBoxes(0)[index];
  const canvas = page.getByTestId('annotation-canvas');
  const area = await canvas.boundingBox();
  if (!box || !area) throw new Error('no canvas');
  const from = { x: area.x + box.x * area.width, y: area.y + box.y * area.height };
  const to = { x: area.x + (box.x + box.w) * area.width, y: area.y + (box.y + box.h) * area.height };
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 4 });
  await page.mouse.move(to.x, to.y, { steps: 4 });
  await page.mouse.up();
}

async function addClass(page: Page, label: string, type: 'TEXT' | 'CHECKBOX') {
  await page.getByRole('textbox', { name: 'Field name' }).fill(label);
  await page.getByRole('combobox', { name: 'Type', exact: true }).click();
  await page.getByRole('option', { name: type, exact: true }).click();
  await page.getByRole('button', { name: 'Add class' }).click();
}

test('a template drawn on its sample reads five statements into the consolidated results and CSV', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const user = await createConfirmedUser(apiUrl(), mailUrl(), 'recognition-e2e');
  await loginThroughUi(page, user.username, GOOD_PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page
    .getByTestId('panel-statement-recognition')
    .getByRole('button', { name: 'Template settings' })
    .click();
  await expect(page).toHaveURL(/\/statement-recognition-new\/template-settings$/);

  // Add: an empty name is refused, then the new template's modal opens on the upload zone.
  await page.getByRole('button', { name: 'Add template' }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(MESSAGES['template.name.required'])).toBeVisible();
  await page.getByRole('textbox', { name: 'Template name' }).fill('KYC e2e');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('dialog', { name: 'KYC e2e' })).toBeVisible();
  await page.getByTestId('pdf-input').setInputFiles({
    name: 'sample.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from(await statementPdf(statementValues(0))),
  });
  await expect(page.getByTestId('annotation-canvas')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(/Page 1 \(1 of 2\)/u)).toBeVisible();

  // Two boxes, each with its field: the account number (text) and the resident tick (checkbox).
  await addClass(page, 'Account number', 'TEXT');
  await page.getByRole('button', { name: 'Create box' }).click();
  await drawBox(page, 1);
  await addClass(page, 'Resident', 'CHECKBOX');
  await drawBox(page, 4);
  await expect(page.getByTestId('annotation-box')).toHaveCount(2);
  await expect(page.locator('[data-testid="annotation-box"][data-label="Resident"]')).toHaveCount(1);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page, MESSAGES['template.mapping.added'])).toBeVisible();
  await expect(page.getByRole('listitem', { name: 'KYC e2e' })).toContainText('2 pages, 2 boxes');

  // Five statements with the template.
  await page.goto('/statement-recognition-new');
  await page.getByRole('combobox', { name: 'Template' }).click();
  await page.getByRole('option', { name: 'KYC e2e' }).click();
  const statements = await Promise.all(
    [11, 12, 13, 14, 15].map(async (index) => ({
      name: `statement-${index}.pdf`,
      mimeType: 'application/pdf',
      buffer: Buffer.from(await statementPdf(statementValues(index))),
    })),
  );
  await page.getByTestId('pdf-input').setInputFiles(statements);
  await page.getByRole('button', { name: 'Process' }).click();
  await expect(page.getByTestId('recognition-result')).toHaveCount(5, { timeout: 60_000 });
  for (const index of [11, 12, 13, 14, 15]) {
    await expect(
      page.getByTestId('recognition-result').filter({ hasText: `statement-${index}.pdf` }),
    ).toContainText(`Account number: ${statementValues(index)['Account number']}`);
  }

  // The consolidated results: Filename, Page, Label, Value.
  await page.getByRole('button', { name: 'Show consolidated results' }).click();
  const table = page.getByRole('table', { name: 'Consolidated results' });
  await expect(table.getByRole('row')).toHaveCount(11);
  await expect(table).toContainText(statementValues(13)['Account number'] ?? '');
  await expect(table).toContainText(statementValues(13).Resident ?? '');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download consolidated' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('consolidated.csv');
  const csv = readFileSync(await file.path(), 'utf8');
  expect(csv.split('\r\n')[0]).toBe('filename,page,label,value');
  expect(csv).toContain(`statement-14.pdf,1,Account number,${statementValues(14)['Account number']}`);
});
