import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import type { Locator, Page } from '@playwright/test';
import { MESSAGES, type AddActionInput } from '@pagewright/shared';
import { startFixtureSite, type FixtureSite } from '../fixtures/site/server.js';
import { createConfirmedUser } from '../support/accounts.js';
import { api, apiUrl, mailUrl } from './builder-page.js';
import { expect, openSignedIn, test } from './fixtures.js';

/**
 * Datasets and queries end to end (issue 12): an extractor reads the fixture site's paged
 * statements table; a dataset is built on it through the wizard, filled by executing the extractor
 * from the dashboard, and read through a query built in its wizard: paging, the xlsx export opened
 * with exceljs, a FILE cell's download, Save, Execute from the dashboard.
 */

let site: FixtureSite;
test.beforeAll(async () => {
  site = await startFixtureSite();
});
test.afterAll(async () => {
  await site?.close();
});

/** The statements table: 15 rows on 3 pages, with a FILE column of PDF links. */
const statementsTable = (): AddActionInput[] => [
  { type: 'NAVIGATE', textValue: `${site.url}/pages/table.html` },
  {
    type: 'GET_TABLE',
    label: 'Statements',
    options: {
      table: {
        name: 'Statements',
        tableSelector: '#statements',
        rowSelector: '#statement-rows tr',
        columns: [
          { label: 'Name', selector: 'td:nth-child(1)', type: 'TEXT' },
          {
            label: 'Amount',
            selector: 'td:nth-child(2)',
            type: 'NUMBER',
            numberMask: { beforePositive: '$', beforeNegative: '-' },
          },
          {
            label: 'Date',
            selector: 'td:nth-child(3)',
            type: 'DATETIME',
            dateMask: { mask: 'MM/dd/yyyy', gmt: 'Etc/GMT0' },
          },
          { label: 'Statement', selector: 'td:nth-child(4) a', type: 'FILE' },
        ],
        nextPageSelector: '#next-page',
        maxPages: 3,
      },
    },
  },
];

/** Records an extractor through the builder's calls (as the builder screen makes them), validates and saves it. */
async function recordExtractor(token: string, name: string, actions: AddActionInput[]): Promise<void> {
  await api(token, '/extractor/start', {
    method: 'POST',
    body: { name, description: `${name} flow`, extractorType: 'EXTRACTOR' },
  });
  for (const action of actions)
    await api(token, '/extractor/?extractorType=EXTRACTOR', { method: 'POST', body: action });
  // The validation streams one line per step; the last one says how it ended.
  const validation = await fetch(`${apiUrl()}/api/extractor/validate?extractorType=EXTRACTOR`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(validation.status).toBe(200);
  expect((await validation.text()).trim().split('\n').at(-1)).toContain('"error":null');
  await api(token, '/extractor/edit?extractorType=EXTRACTOR', { method: 'PUT', body: {} });
  await api(token, '/extractor/end?extractorType=EXTRACTOR');
}

const row = (list: Locator, name: string) => list.getByRole('listitem', { name, exact: true });
const toast = (page: Page, text: string) => page.getByTestId('toast').filter({ hasText: text });

async function choose(page: Page, combobox: string, option: string) {
  await page.getByRole('combobox', { name: combobox, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** The first cell of each row of the result table. */
async function firstColumn(page: Page): Promise<string[]> {
  const rows = page.getByRole('table', { name: 'Result' }).locator('tbody tr');
  return rows.evaluateAll((found) => found.map((tr) => tr.querySelector('td')?.textContent ?? ''));
}

test('a dataset built on an extractor fills when it runs; a query pages, exports and downloads its files', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const user = await createConfirmedUser(apiUrl(), mailUrl(), 'datasets-e2e');
  await recordExtractor(user.accessToken, 'Statements reader', statementsTable());
  await openSignedIn(page, user);
  await expect(page).toHaveURL(/\/dashboard$/);
  const datasets = page.getByTestId('panel-datasets');
  const queries = page.getByTestId('panel-queries');

  // New dataset: Custom, or one of the F-Engine types (issue 25: they can be chosen now).
  await datasets.getByRole('button', { name: 'Add dataset' }).click();
  await expect(page).toHaveURL(/\/dataset-extractor$/);
  await page.getByRole('combobox', { name: 'Type' }).click();
  await expect(page.getByRole('option', { name: 'F-Engine transaction' })).not.toHaveAttribute(
    'aria-disabled',
    'true',
  );
  await page.getByRole('option', { name: 'Custom' }).click();
  await page.getByLabel('Name').fill('Statements');
  await page.getByLabel('Description').fill('Monthly statements');
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page).toHaveURL(/\/dataset\?datasetId=[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: 'Statements' })).toBeVisible();

  // Step 1: four fields; Name is the key, the FILE field makes two columns.
  await page.getByRole('textbox', { name: 'Name of field 1' }).fill('Name');
  for (const [number, name, type] of [
    [2, 'Amount', 'Number'],
    [3, 'Date', 'Date and time'],
    [4, 'Statement', 'File'],
  ] as const) {
    await page.getByRole('button', { name: 'Add field' }).click();
    await page.getByRole('textbox', { name: `Name of field ${number}` }).fill(name);
    await choose(page, `Type of field ${number}`, type);
    await page.getByRole('checkbox', { name: `Field ${number} is a key` }).uncheck();
  }
  await expect(page.getByRole('list', { name: 'Columns of the dataset' }).getByRole('listitem')).toHaveText([
    'Name',
    'Amount',
    'Date',
    'Statement (file name)',
    'Statement (file link)',
  ]);
  await page.getByRole('button', { name: 'Next' }).click();

  // Step 2: the extractor's table columns are offered; take the four.
  const offered = (column: string) => `Statements reader · Statements · ${column}`;
  for (const column of ['Name', 'Amount', 'Date', 'Statement'])
    await page.getByRole('checkbox', { name: `Use ${offered(column)}` }).check();
  await page.getByRole('button', { name: 'Next' }).click();

  // Step 3: each column fills the field of its name.
  for (const column of ['Name', 'Amount', 'Date', 'Statement'])
    await page.getByRole('checkbox', { name: `${offered(column)} fills ${column}` }).check();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page, MESSAGES['dataset.saved'])).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);
  const dataset = row(datasets, 'Statements');
  await expect(dataset.getByTestId('dataset-rows')).toHaveText('Rows: 0');

  // A query on a dataset without rows asks before going on.
  await queries.getByRole('button', { name: 'Add query' }).click();
  await page.getByLabel('Name').fill('Too early');
  await page.getByLabel('Description').fill('Before any run');
  await page.getByRole('button', { name: 'Create' }).click();
  await page.getByRole('radio', { name: /^Statements/ }).check();
  await page.getByRole('button', { name: 'Next' }).click();
  const noData = page.getByRole('dialog', { name: 'No data yet' });
  await expect(noData).toContainText(MESSAGES['query.dataset.no.data']);
  await noData.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(row(queries, 'Too early')).toHaveCount(0);

  // Executing the extractor from the dashboard fills the dataset: 15 rows over 3 pages.
  const extractor = row(page.getByTestId('panel-extractors'), 'Statements reader');
  await extractor.getByRole('button', { name: 'More actions for Statements reader' }).click();
  await page.getByRole('menuitem', { name: 'Execute' }).click();
  await expect(extractor).toHaveAttribute('data-status', 'SUCCESS', { timeout: 120_000 });
  await expect(dataset.getByTestId('dataset-rows')).toHaveText('Rows: 15', { timeout: 15_000 });

  // A query: every field, the largest amounts first, positive amounts only.
  await queries.getByRole('button', { name: 'Add query' }).click();
  await expect(page).toHaveURL(/\/query-extractor$/);
  await page.getByLabel('Name').fill('Big amounts');
  await page.getByLabel('Description').fill('Positive amounts, largest first');
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page).toHaveURL(/\/Query\?queryId=[0-9a-f-]{36}&mode=new$/);
  await page.getByRole('radio', { name: /^Statements/ }).check();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('checkbox', { name: 'Show Statement' })).toBeChecked();
  await choose(page, 'Order of Amount', 'Descending');
  await choose(page, 'Sort position of Amount', '1');
  await page.getByRole('button', { name: 'Next' }).click();

  await page.getByRole('button', { name: 'Add filter' }).click();
  await choose(page, 'Field of filter 1', 'Amount');
  await choose(page, 'Operator of filter 1', '>');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText(MESSAGES['query.all.fields.mandatory']).first()).toBeVisible();
  await page.getByRole('spinbutton', { name: 'Value of filter 1' }).fill('0');
  await page.getByRole('button', { name: 'Next' }).click();

  // The result, five rows a page from the server: 11 of the 15 amounts are positive.
  await expect(page.getByTestId('query-total')).toHaveText('Rows: 11');
  await expect(page.getByRole('table', { name: 'Result' }).getByRole('columnheader')).toHaveText([
    'Name',
    'Amount',
    'Date',
    'Statement (file name)',
    'Statement (file link)',
  ]);
  await expect
    .poll(() => firstColumn(page))
    .toEqual(['Maya Patel', 'Daniel Kim', 'Grace Lee', 'Jonas Berg', 'Alice Martin']);
  await page.getByRole('button', { name: 'Go to next page' }).click();
  await expect
    .poll(() => firstColumn(page))
    .toEqual(['Chloe Dubois', 'Olga Novak', 'Kira Sato', 'Noah Fischer', 'Farid Haddad']);
  await page.getByRole('button', { name: 'Go to next page' }).click();
  await expect.poll(() => firstColumn(page)).toEqual(['Ines Moreau']);
  await choose(page, 'Rows per page', '25');
  await expect.poll(async () => (await firstColumn(page)).length).toBe(11);

  // A FILE cell downloads the statement the run kept.
  const fileDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download statement-13.pdf' }).click();
  const file = await fileDownload;
  expect(file.suggestedFilename()).toBe('statement-13.pdf');
  expect((await readFile(await file.path())).subarray(0, 5).toString('latin1')).toBe('%PDF-');

  // Export: the whole result as "Big amounts.xlsx", read back with exceljs.
  const exportDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export to spreadsheet' }).click();
  const exported = await exportDownload;
  expect(exported.suggestedFilename()).toBe('Big amounts.xlsx');
  await expect(toast(page, 'Saved Big amounts.xlsx')).toBeVisible();
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(await exported.path());
  const sheet = workbook.worksheets[0]!;
  expect(sheet.rowCount).toBe(12);
  const cells = (number: number) => (sheet.getRow(number).values as unknown[]).slice(1);
  expect(cells(1)).toEqual(['Name', 'Amount', 'Date', 'Statement']);
  expect(cells(2).slice(0, 2)).toEqual(['Maya Patel', 18400]);
  expect(cells(2)[2]).toEqual(new Date('2025-05-12T00:00:00.000Z'));
  expect(cells(2)[3]).toBe('statement-13.pdf');
  expect(cells(12).slice(0, 2)).toEqual(['Ines Moreau', 0.99]);

  await page.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page, MESSAGES['query.saved'])).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);
  const query = row(queries, 'Big amounts');
  await expect(query).toContainText('Dataset: Statements');

  // Execute from the dashboard: the wizard opens at the filters, never offers Save.
  await query.getByRole('button', { name: 'More actions for Big amounts' }).click();
  await page.getByRole('menuitem', { name: 'Execute' }).click();
  await expect(page).toHaveURL(/\/Query\?queryId=[0-9a-f-]{36}&mode=execute$/);
  await expect(page.getByRole('combobox', { name: 'Operator of filter 1' })).toHaveText('>');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByTestId('query-total')).toHaveText('Rows: 11');
  await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // Rename, with the spec's text.
  await query.getByRole('button', { name: 'More actions for Big amounts' }).click();
  await page.getByRole('menuitem', { name: 'Rename' }).click();
  const renaming = page.getByRole('dialog', { name: 'Rename query' });
  await renaming.getByLabel('Name').fill('Positive amounts');
  await renaming.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page, MESSAGES['query.renamed'])).toBeVisible();
  await expect(row(queries, 'Positive amounts')).toBeVisible();

  // Editing the dataset opens with its fields and mappings; a field added to a dataset holding
  // rows makes it dirty (older rows lack it until the next run).
  await expect(dataset.getByTestId('dataset-dirty')).toHaveCount(0);
  await dataset.getByRole('button', { name: 'Edit Statements' }).click();
  await expect(page).toHaveURL(/\/dataset\?datasetId=[0-9a-f-]{36}&edit=1$/);
  await expect(page.getByRole('textbox', { name: 'Name of field 4' })).toHaveValue('Statement');
  await page.getByRole('button', { name: 'Add field' }).click();
  await page.getByRole('textbox', { name: 'Name of field 5' }).fill('Note');
  await page.getByRole('checkbox', { name: 'Field 5 is a key' }).uncheck();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('checkbox', { name: `Use ${offered('Amount')}` })).toBeChecked();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('checkbox', { name: `${offered('Amount')} fills Amount` })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: `${offered('Amount')} fills Note` })).not.toBeChecked();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(dataset.getByRole('img', { name: 'Changed after rows were written' })).toBeVisible();

  // The dataset cannot go while the query reads it.
  await dataset.getByRole('button', { name: 'Delete Statements' }).click();
  await page.getByRole('dialog', { name: 'Delete dataset?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(toast(page, MESSAGES['dataset.delete.query'])).toBeVisible();
  await expect(dataset).toBeVisible();
});
