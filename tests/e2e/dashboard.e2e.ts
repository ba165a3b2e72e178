import request from 'supertest';
import { MESSAGES, type AddActionInput, type ExtractorType, type PendingAskAction } from '@pagewright/shared';
import { FIXTURE_PASSWORD, startFixtureSite, type FixtureSite } from '../fixtures/site/server.js';
import { createConfirmedUser } from '../support/accounts.js';
import { saveOneAction, withDatabase } from '../support/test-database.js';
import { waitUntil } from '../support/wait.js';
import { expect, openSignedIn, test } from './fixtures.js';
import type { Locator, Page } from '@playwright/test';

/**
 * The dashboard lists (extractors, insertors, navigators): create, rename, copy, delete, execute,
 * answer a run's question through the ask dialog, and the bottom-left notice of a failed run.
 */

const api = () => request(process.env.PW_E2E_BASE_URL!);
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

interface Account {
  username: string;
  password: string;
  accessToken: string;
  refreshToken: string;
}

const newAccount = (label: string): Promise<Account> =>
  createConfirmedUser(process.env.PW_E2E_BASE_URL!, process.env.PW_E2E_MAIL_URL!, label);

async function signIn(page: Page, account: Account): Promise<void> {
  await openSignedIn(page, account);
  await expect(page).toHaveURL(/\/dashboard$/);
}

async function signedIn(page: Page, label: string): Promise<Account> {
  const account = await newAccount(label);
  await signIn(page, account);
  return account;
}

const panel = (page: Page, id: 'extractors' | 'insertors' | 'navigators') => page.getByTestId(`panel-${id}`);
const row = (list: Locator, name: string) => list.getByRole('listitem', { name, exact: true });
/** The item the builder route shows (`?id=`). */
const itemIdOf = (page: Page) => new URL(page.url()).searchParams.get('id')!;

/**
 * Records a flow through the builder calls (as the builder screen does), validates it, answering
 * its asks with `answers` in turn, and saves it.
 */
async function recordFlow(
  account: Account,
  extractorType: ExtractorType,
  name: string,
  actions: AddActionInput[],
  answers: string[] = [],
): Promise<string> {
  const auth = bearer(account.accessToken);
  const created = await api()
    .post('/api/extractor/start')
    .set(auth)
    .send({ name, description: `${name} flow`, extractorType })
    .expect(201);
  for (const action of actions) {
    const added = await api().post('/api/extractor/').query({ extractorType }).set(auth).send(action);
    expect(added.status, JSON.stringify(added.body)).toBe(200);
  }
  let isValidated = false;
  const validation = api()
    .get('/api/extractor/validate')
    .query({ extractorType })
    .set(auth)
    .buffer(true)
    .then((answer) => {
      isValidated = true;
      return answer;
    });
  for (const textValue of answers) {
    const { ask } = await waitUntil(
      async () => {
        if (isValidated) return { ask: undefined };
        const pending = await api()
          .get('/api/extractor/getPendingAskActionToFill')
          .query({ extractorType })
          .set(auth);
        return pending.status === 200 && { ask: pending.body as PendingAskAction };
      },
      { timeoutMs: 20_000, intervalMs: 200, message: 'an ask of the validation' },
    );
    if (!ask) throw new Error('the validation ended before asking');
    await api()
      .post('/api/extractor/updatePendingAskAction')
      .set(auth)
      .send({ id: ask.id, textValue })
      .expect(200);
  }
  const validated = await validation;
  expect(validated.status).toBe(200);
  expect(validated.text.trim().split('\n').at(-1)).toContain('"error":null');
  await api().put('/api/extractor/edit').query({ extractorType }).set(auth).send({}).expect(200);
  await api().get('/api/extractor/end').query({ extractorType }).set(auth).expect(200);
  return (created.body as { id: string }).id;
}

const loginFlow = (site: FixtureSite): AddActionInput[] => [
  { type: 'NAVIGATE', textValue: `${site.url}/pages/login.html` },
  { type: 'TYPE_TEXT', target: { selectorValue: '#username' }, textValue: 'ops-user' },
  { type: 'TYPE_PASSWORD', target: { selectorValue: '#password' }, credentials: FIXTURE_PASSWORD },
  { type: 'CLICK', target: { selectorValue: '#login-submit' } },
  { type: 'GET_TEXT', label: 'Welcome', target: { selectorValue: '#welcome' } },
];

test.describe('dashboard lists', () => {
  test('creates an extractor, renames (unique-name error), copies and deletes with confirmation', async ({
    page,
  }) => {
    await signedIn(page, 'dash-crud');
    const extractors = panel(page, 'extractors');
    await expect(extractors.getByText('No items yet')).toBeVisible();

    // Add: the dialog's rules, then the builder route with the new item.
    await extractors.getByRole('button', { name: 'Add extractor' }).click();
    const dialog = page.getByRole('dialog', { name: 'New extractor' });
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(dialog.getByText(MESSAGES['extractor.list.error.name'])).toBeVisible();
    await expect(dialog.getByText(MESSAGES['extractor.list.error.description'])).toBeVisible();
    await dialog.getByLabel('Name').fill('Prices');
    await dialog.getByLabel('Description').fill('Daily prices');
    await dialog.getByLabel('Name').press('Enter');
    await expect(page).toHaveURL(/\/extractor\?id=[0-9a-f-]{36}$/);
    const pricesId = itemIdOf(page);

    // A draft never saved nor validated is not listed (docs/decisions.md); saved, it is.
    await page.goto('/dashboard');
    await expect(extractors.getByText('No items yet')).toBeVisible();
    await withDatabase(process.env.PW_E2E_DATABASE_URL!, (db) => saveOneAction(db, pricesId));
    await page.reload();
    await expect(row(extractors, 'Prices')).toBeVisible();
    // A second one, added the same way; the same name again is refused under the name field.
    await extractors.getByRole('button', { name: 'Add extractor' }).click();
    await dialog.getByLabel('Name').fill('Prices');
    await dialog.getByLabel('Description').fill('again');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(dialog.getByText(MESSAGES['extractor.list.error.unique'])).toBeVisible();
    await dialog.getByLabel('Name').fill('Rates');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(page).toHaveURL(/\/extractor\?id=/);
    await withDatabase(process.env.PW_E2E_DATABASE_URL!, (db) => saveOneAction(db, itemIdOf(page)));
    await page.goto('/dashboard');

    // Rename Rates to Prices: the unique-name error; then to Rates 2.
    await row(extractors, 'Rates').getByRole('button', { name: 'More actions for Rates' }).click();
    await page.getByRole('menuitem', { name: 'Rename' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename extractor' });
    await expect(rename.getByLabel('Name')).toHaveValue('Rates');
    await rename.getByLabel('Name').fill('Prices');
    await rename.getByRole('button', { name: 'Save' }).click();
    await expect(rename.getByText('This name already exists, please choose a different one.')).toBeVisible();
    await rename.getByLabel('Name').fill('Rates 2');
    await rename.getByRole('button', { name: 'Save' }).click();
    await expect(rename).toBeHidden();
    await expect(row(extractors, 'Rates 2')).toBeVisible();
    await expect(row(extractors, 'Rates')).toHaveCount(0);

    // Copy.
    await row(extractors, 'Prices').getByRole('button', { name: 'More actions for Prices' }).click();
    await page.getByRole('menuitem', { name: 'Copy' }).click();
    await expect(row(extractors, 'Prices (copy)')).toBeVisible();
    await expect(page.getByTestId('toast').filter({ hasText: 'Copied as “Prices (copy)”' })).toBeVisible();

    // Delete asks first; Cancel keeps the row.
    const copyRow = row(extractors, 'Prices (copy)');
    await copyRow.getByRole('button', { name: 'Delete Prices (copy)' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete extractor?' });
    await expect(confirm).toContainText('“Prices (copy)”');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();
    await expect(copyRow).toBeVisible();
    await copyRow.getByRole('button', { name: 'Delete Prices (copy)' }).click();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(copyRow).toHaveCount(0);
    await expect(row(extractors, 'Prices')).toBeVisible();

    // Edit goes to the builder route of the item.
    await row(extractors, 'Prices').getByRole('button', { name: 'Edit Prices' }).click();
    await expect(page).toHaveURL(/\/extractor\?id=[0-9a-f-]{36}$/);
  });

  test('a navigator needs a viewer e-mail and opens the screen-share builder', async ({ page }) => {
    await signedIn(page, 'dash-navigator');
    const navigators = panel(page, 'navigators');
    await navigators.getByRole('button', { name: 'Add navigator' }).click();
    const dialog = page.getByRole('dialog', { name: 'New navigator' });
    await dialog.getByLabel('Name').fill('Share');
    await dialog.getByLabel('Description').fill('Shows the run');
    await dialog.getByLabel('Viewer e-mail').fill('viewer@example');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(dialog.getByText(MESSAGES['signup.email.invalid'])).toBeVisible();
    await dialog.getByLabel('Viewer e-mail').fill('viewer@example.com');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(page).toHaveURL(/\/screen-share-executor\?id=[0-9a-f-]{36}$/);
  });

  test.describe('runs', () => {
    let site: FixtureSite;
    test.beforeAll(async () => {
      site = await startFixtureSite();
    });
    test.afterAll(async () => {
      await site?.close();
    });

    test('executes an extractor to SUCCESS; a failed run shows its first error bottom-left', async ({
      page,
    }) => {
      test.setTimeout(120_000);
      const account = await signedIn(page, 'dash-run');
      const extractors = panel(page, 'extractors');
      // A site of its own: this test closes it.
      const runSite = await startFixtureSite();
      try {
        await recordFlow(account, 'EXTRACTOR', 'Welcome reader', loginFlow(runSite));
        const flow = row(extractors, 'Welcome reader');
        await expect(flow).toBeVisible();
        await expect(flow).toHaveAttribute('data-status', 'NONE');

        await flow.getByRole('button', { name: 'More actions for Welcome reader' }).click();
        await page.getByRole('menuitem', { name: 'Execute' }).click();
        await expect(flow.getByRole('img', { name: 'Executing' })).toBeVisible();
        // While it runs there is neither menu nor delete.
        await expect(flow.getByRole('button', { name: 'Delete Welcome reader' })).toHaveCount(0);
        await expect(flow.getByRole('img', { name: 'Success' })).toBeVisible({ timeout: 60_000 });
        await expect(flow).toHaveAttribute('data-status', 'SUCCESS');
        // The row menu offers the run's results once it has one: what GET_TEXT read.
        await flow.getByRole('button', { name: 'More actions for Welcome reader' }).click();
        await page.getByRole('menuitem', { name: 'Results' }).click();
        const results = page.getByRole('dialog', { name: /Run results: Welcome reader/ });
        await expect(results.getByTestId('run-status')).toHaveText('Success');
        await expect(results.getByRole('listitem', { name: /: Get text$/ })).toContainText(
          'Welcome, ops-user',
        );
        await results.getByRole('button', { name: 'Close' }).click();
        await expect(results).toBeHidden();

        // The site it reads goes away: the next run fails, and its error shows bottom-left once.
        await runSite.close();
        await flow.getByRole('button', { name: 'More actions for Welcome reader' }).click();
        await page.getByRole('menuitem', { name: 'Execute' }).click();
        await expect(flow.getByRole('img', { name: 'Error' })).toBeVisible({ timeout: 60_000 });
        const notice = page.getByTestId('run-error-notice');
        await expect(notice).toBeVisible();
        await expect(notice).toContainText('Welcome reader');
        const box = await notice.boundingBox();
        const viewport = page.viewportSize()!;
        expect(box!.x).toBeLessThan(viewport.width / 3);
        expect(box!.y + box!.height).toBeGreaterThan(viewport.height * 0.75);
        // Shown once: the server marked it seen, so a reload shows the ERROR row without the notice.
        await notice.getByRole('button', { name: 'Close' }).click();
        await expect(notice).toBeHidden();
        await page.reload();
        await expect(flow.getByRole('img', { name: 'Error' })).toBeVisible();
        // The list's pending-ask check follows each of its loads (1 s later, spec §4): once the
        // page asks for one after this row showed, the effects of that load, a notice's included,
        // have run.
        await page.waitForRequest((request) =>
          request.url().includes('/api/extractor/getPendingAskActionToFill?extractorType=EXTRACTOR'),
        );
        await expect(notice).toBeHidden();

        // The ERROR marker opens the failed run: its error, and the step it failed at marked.
        await flow.getByRole('button', { name: 'Results of the last run of Welcome reader' }).click();
        const failed = page.getByRole('dialog', { name: /Run results: Welcome reader/ });
        await expect(failed.getByTestId('run-status')).toHaveText('Error');
        await expect(failed.getByText(/^Failed at step \d+: /)).toBeVisible();
        await expect(failed.locator('[data-failed="true"]')).toHaveCount(1);
        await page.keyboard.press('Escape');
        await expect(failed).toBeHidden();
      } finally {
        await runSite.close().catch(() => undefined);
      }
    });

    test('an insertor asks for a code during its run; the ask dialog answers it and the run succeeds', async ({
      page,
    }) => {
      test.setTimeout(120_000);
      // Recorded before signing in: the validation's own question is answered by the setup, not the dialog.
      const account = await newAccount('dash-ask');
      await recordFlow(
        account,
        'INSERTOR',
        'Coded login',
        [
          { type: 'NAVIGATE', textValue: `${site.url}/pages/login.html` },
          {
            type: 'ASK_CODE',
            label: 'Access code',
            textValue: 'Type the access code',
            target: { selectorValue: '#username' },
            credentials: 'recorded-code',
          },
          { type: 'TYPE_PASSWORD', target: { selectorValue: '#password' }, credentials: FIXTURE_PASSWORD },
          { type: 'CLICK', target: { selectorValue: '#login-submit' } },
        ],
        ['validation-code'],
      );
      await signIn(page, account);
      const insertors = panel(page, 'insertors');
      const flow = row(insertors, 'Coded login');
      await expect(flow).toBeVisible();
      await flow.getByRole('button', { name: 'More actions for Coded login' }).click();
      await page.getByRole('menuitem', { name: 'Execute' }).click();
      await expect(flow.getByRole('img', { name: 'Executing' })).toBeVisible();

      const ask = page.getByRole('dialog', { name: 'Access code' });
      await expect(ask).toBeVisible({ timeout: 20_000 });
      await expect(ask).toContainText('Type the access code');
      await expect(ask.getByRole('img', { name: 'Element' })).toBeVisible();
      await ask.getByLabel('Answer').fill('ops-user');
      await ask.getByLabel('Answer').press('Enter');
      await expect(ask).toBeHidden();
      await expect(flow.getByRole('img', { name: 'Success' })).toBeVisible({ timeout: 60_000 });
    });

    test('an ask answered elsewhere (another tab) leaves the dialog by itself', async ({ page }) => {
      test.setTimeout(120_000);
      const account = await newAccount('dash-ask-elsewhere');
      await recordFlow(
        account,
        'EXTRACTOR',
        'Asked id',
        [
          { type: 'NAVIGATE', textValue: `${site.url}/pages/login.html` },
          { type: 'ASK_ID', label: 'User id', target: { selectorValue: '#username' }, credentials: 'rec' },
          { type: 'TYPE_PASSWORD', target: { selectorValue: '#password' }, credentials: FIXTURE_PASSWORD },
          { type: 'CLICK', target: { selectorValue: '#login-submit' } },
          { type: 'GET_TEXT', label: 'Welcome', target: { selectorValue: '#welcome' } },
        ],
        ['validation-user'],
      );
      await signIn(page, account);
      const flow = row(panel(page, 'extractors'), 'Asked id');
      await flow.getByRole('button', { name: 'More actions for Asked id' }).click();
      await page.getByRole('menuitem', { name: 'Execute' }).click();
      const ask = page.getByRole('dialog', { name: 'User id' });
      await expect(ask).toBeVisible({ timeout: 20_000 });

      const pending = await api()
        .get('/api/extractor/getPendingAskActionToFill')
        .query({ extractorType: 'EXTRACTOR' })
        .set(bearer(account.accessToken))
        .expect(200);
      await api()
        .post('/api/extractor/updatePendingAskAction')
        .set(bearer(account.accessToken))
        .send({ id: (pending.body as PendingAskAction).id, textValue: 'other-tab-user' })
        .expect(200);
      await expect(ask).toBeHidden();
      await expect(
        page.getByTestId('toast').filter({ hasText: 'This question is no longer waiting for an answer.' }),
      ).toBeVisible();
      await expect(flow.getByRole('img', { name: 'Success' })).toBeVisible({ timeout: 60_000 });
    });
  });
});
