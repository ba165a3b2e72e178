import request from 'supertest';
import { startFixtureSite, type FixtureSite } from '../fixtures/site/server.js';
import { createConfirmedUser } from '../support/accounts.js';
import { withDatabase } from '../support/test-database.js';
import { expect, openSignedIn, test } from './fixtures.js';

/**
 * Bulk runs (issue 26, item 4): an extractor with a URL input run over a CSV of six pages from its
 * dashboard menu; the bulk run's page follows the progress to 100 %, shows the one row whose page
 * lacks the element read, and runs that row again on its own.
 */

const api = () => request(process.env.PW_E2E_BASE_URL!);

let site: FixtureSite;

test.beforeAll(async () => {
  site = await startFixtureSite();
});

test.afterAll(async () => {
  await site.close();
});

/** An extractor that opens `{{input.page}}` and reads the echo page's query value (1.5 s at most). */
async function makeExtractorWithInput(token: string, name: string): Promise<string> {
  const created = await api()
    .post('/api/extractor/start')
    .set({ Authorization: `Bearer ${token}` })
    .send({ name, description: `${name} flow`, extractorType: 'EXTRACTOR' })
    .expect(201);
  const extractorId = (created.body as { id: string }).id;
  await withDatabase(process.env.PW_E2E_DATABASE_URL!, async (db) => {
    await db.query(`UPDATE "Extractor" SET inputs = $2::jsonb WHERE id = $1`, [
      extractorId,
      JSON.stringify([{ name: 'page', type: 'URL', defaultValue: `${site.url}/pages/echo.html?q=recorded` }]),
    ]);
    await db.query(
      `INSERT INTO "ExtractorAction" (id, "extractorId", sequence, type, "textValue", "updatedAt") VALUES (gen_random_uuid(), $1, 10, 'NAVIGATE', '{{input.page}}', now())`,
      [extractorId],
    );
    await db.query(
      `INSERT INTO "ExtractorAction" (id, "extractorId", sequence, type, label, "selectorValue", options, "updatedAt") VALUES (gen_random_uuid(), $1, 20, 'GET_TEXT', 'Query', '#query-value', $2::jsonb, now())`,
      [extractorId, JSON.stringify({ timeoutMs: 1_500 })],
    );
  });
  return extractorId;
}

test('runs an extractor over a CSV from its menu, follows the progress and retries the failed row', async ({
  page,
}) => {
  // Each run opens a browser page: on the 2-core machine six take a minute or more.
  test.setTimeout(240_000);
  const account = await createConfirmedUser(
    process.env.PW_E2E_BASE_URL!,
    process.env.PW_E2E_MAIL_URL!,
    'bulk-runs',
  );
  const name = 'Bulky';
  await makeExtractorWithInput(account.accessToken, name);
  // Row 4 opens a page without #query-value: its run fails, the others read their q.
  const pages = ['one', 'two', 'three', null, 'five', 'six'].map((q) =>
    q === null ? `${site.url}/pages/table.html` : `${site.url}/pages/echo.html?q=${q}`,
  );
  const csv = ['page', ...pages].join('\n');

  await openSignedIn(page, account);
  await expect(page).toHaveURL(/\/dashboard$/);
  const row = page.getByTestId('panel-extractors').getByRole('listitem', { name, exact: true });
  await row.getByRole('button', { name: `More actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Bulk run' }).click();

  const dialog = page.getByRole('dialog', { name: `Bulk run: ${name}` });
  await dialog.getByLabel('CSV file').setInputFiles({
    name: 'pages.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(csv),
  });
  await expect(dialog.getByText('pages.csv: 6 rows')).toBeVisible();
  await expect(dialog.getByText('Columns: page')).toBeVisible();
  await dialog.getByRole('button', { name: 'Start bulk run' }).click();

  await expect(page).toHaveURL(/\/bulk-runs\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: `Bulk run: ${name}` })).toBeVisible();
  await expect(page.getByText('From pages.csv')).toBeVisible();
  const progress = page.getByRole('progressbar', { name: 'Progress' });
  await expect(progress).toHaveAttribute('aria-valuenow', '100', { timeout: 150_000 });
  await expect(page.getByTestId('bulk-run-progress')).toHaveText('6 of 6 done · 5 succeeded · 1 failed');
  await expect(page.getByTestId('bulk-run-status')).toHaveText('Finished');

  const table = page.getByRole('table', { name: 'Rows' });
  const failed = table.getByTestId('bulk-run-item-4');
  await expect(failed).toHaveAttribute('data-status', 'ERROR');
  await expect(failed.getByRole('cell').nth(4)).not.toBeEmpty();
  await expect(table.getByTestId('bulk-run-item-1')).toHaveAttribute('data-status', 'SUCCESS');
  await expect(table.getByRole('button', { name: /^Retry row/ })).toHaveCount(1);

  await failed.getByRole('button', { name: 'Retry row 4' }).click();
  await expect(page.getByTestId('bulk-run-status')).toHaveText('Running');
  // The same page still lacks the element: the row fails again, on its second attempt.
  await expect(failed.getByRole('cell').nth(3)).toHaveText('2', { timeout: 60_000 });
  await expect(failed).toHaveAttribute('data-status', 'ERROR', { timeout: 60_000 });
  await expect(progress).toHaveAttribute('aria-valuenow', '100');
  await expect(page.getByTestId('bulk-run-status')).toHaveText('Finished', { timeout: 30_000 });

  // A row's results open the run it made.
  await table.getByRole('button', { name: 'Results of row 2' }).click();
  const results = page.getByRole('dialog', { name: /Run results: Bulky, row 2/ });
  await expect(results).toContainText('two');
});
