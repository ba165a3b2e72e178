import type { Page } from '@playwright/test';
import { MESSAGES, type BuilderView, type ExtractorType, type NormalizedPage } from '@pagewright/shared';
import { FIXTURE_PASSWORD, startFixtureSite, type FixtureSite } from '../fixtures/site/server.js';
import { createConfirmedUser } from '../support/accounts.js';
import {
  api,
  apiUrl,
  card,
  centreOf,
  chooseAction,
  clickOnPage,
  confirm,
  dialog,
  mailUrl,
  executeFromDashboard,
  extractorRow,
  openRunResults,
  pickAndOpen,
  selectInTable,
  validateSaveAndClose,
} from './builder-page.js';
import { expect, openSignedIn, test } from './fixtures.js';

let site: FixtureSite;
test.beforeAll(async () => {
  site = await startFixtureSite();
});
test.afterAll(async () => {
  await site?.close();
});

/** A signed-in operator (through the login screen) and an API token of the same account. */
async function signIn(page: Page, label: string) {
  const user = await createConfirmedUser(apiUrl(), mailUrl(), label);
  await openSignedIn(page, user);
  await expect(page).toHaveURL(/\/dashboard$/);
  return user;
}

async function startItem(token: string, extractorType: ExtractorType, name: string, viewerEmail?: string) {
  const created = await api<{ id: string }>(token, '/extractor/start', {
    method: 'POST',
    body: { name, description: `${name} (e2e)`, extractorType, ...(viewerEmail ? { viewerEmail } : {}) },
  });
  return created.id;
}

/**
 * Signs in, creates an item and opens its builder on `page`, whose first action navigates to a
 * fixture page (card 10). Returns the API token and the item's id.
 */
async function recordFrom(
  page: Page,
  label: string,
  extractorType: 'EXTRACTOR' | 'INSERTOR',
  name: string,
  fixturePage: string,
) {
  const token = (await signIn(page, label)).accessToken;
  const id = await startItem(token, extractorType, name);
  await page.goto(`/${extractorType === 'INSERTOR' ? 'insertor' : 'extractor'}?id=${id}`);
  await expect(page.getByRole('heading', { name })).toBeVisible();
  await chooseAction(page, 'Navigate');
  await dialog(page).getByLabel('URL').fill(`${site.url}/pages/${fixturePage}`);
  await confirm(page, 10);
  return { token, id };
}

test('an extractor recorded by clicking the live page validates, saves and runs', async ({ page }) => {
  test.setTimeout(480_000);
  const user = await signIn(page, 'builder-e2e');
  const token = user.accessToken;
  const id = await startItem(token, 'EXTRACTOR', 'Recorded by clicking');
  await page.goto(`/extractor?id=${id}`);
  await expect(page.getByRole('heading', { name: 'Recorded by clicking' })).toBeVisible();

  // A brand-new builder offers Navigate only.
  await expect(page.getByRole('menuitem')).toHaveCount(1);
  await chooseAction(page, 'Navigate');
  await dialog(page).getByLabel('URL').fill(`${site.url}/pages/login.html`);
  await confirm(page, 10);

  await pickAndOpen(page, token, 'EXTRACTOR', 'Type text', '#username');
  await dialog(page).getByLabel('Text').fill('ops-user');
  await confirm(page, 20);

  await pickAndOpen(page, token, 'EXTRACTOR', 'Type password', '#password');
  await dialog(page).getByLabel('Password').fill(FIXTURE_PASSWORD);
  await confirm(page, 30);

  await pickAndOpen(page, token, 'EXTRACTOR', 'Click', '#login-submit');
  await confirm(page, 40);
  // The card names the element as a person reads it; its CSS path is one click away.
  await expect(card(page, 40)).toContainText('button "Sign in"');
  await expect(card(page, 40)).not.toContainText('#login-submit');
  await card(page, 40).getByRole('button', { name: 'Show selector' }).click();
  await expect(card(page, 40).locator('code')).toHaveText('#login-submit');

  await pickAndOpen(page, token, 'EXTRACTOR', 'Get text', '#welcome');
  await dialog(page).getByLabel('Label').fill('Welcome');
  await confirm(page, 50);
  await expect(card(page, 50).getByRole('button', { name: /Enlarge the picture/ })).toBeVisible();

  await chooseAction(page, 'Script');
  await dialog(page).getByLabel('Label').fill('Welcome length');
  await dialog(page).getByRole('combobox', { name: 'Return type' }).click();
  await page.getByRole('option', { name: 'Number' }).click();
  const editor = dialog(page).getByRole('textbox', { name: 'Script code' });
  await editor.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type("return document.querySelector('#welcome').textContent.length;");
  await confirm(page, 60);

  await chooseAction(page, 'If condition');
  await dialog(page).getByRole('combobox', { name: 'Source action' }).click();
  await page.getByRole('option', { name: /^60/ }).click();
  await dialog(page).getByRole('combobox', { name: 'Condition' }).click();
  await page.getByRole('option', { name: 'Greater than', exact: true }).click();
  await dialog(page).getByLabel('Value').fill('3');
  await dialog(page).getByLabel('Next action sequence').fill('9990');
  await confirm(page, 70);

  await chooseAction(page, 'Navigate');
  await dialog(page).getByLabel('URL').fill(`${site.url}/pages/table.html`);
  await confirm(page, 80);

  // Get table: name it, then pick the table, a row and two columns (one a FILE link) on the page.
  await chooseAction(page, 'Get table');
  await dialog(page).getByLabel('Table name').fill('Statements');
  await dialog(page).getByRole('button', { name: 'Confirm' }).click();
  const panel = page.getByRole('region', { name: 'Get table: Statements' });
  await expect(panel).toBeVisible();
  // A click picks the innermost element under the pointer; Up climbs to the one wanted.
  const selectOnPage = (selector: string) => selectInTable(page, token, panel, selector);
  await selectOnPage('#statements');
  await panel.getByRole('button', { name: 'Next' }).click();
  await selectOnPage('#statement-rows > tr:nth-of-type(1)');
  await panel.getByRole('button', { name: 'Next' }).click();
  // A column is the selection when Add column is pressed: wait for the click's answer, as a person
  // sees the cell selected (CI run 50 pressed it first, and the File column was refused, rightly).
  const clickColumn = async (selector: string) => {
    await clickOnPage(page, await centreOf(token, 'EXTRACTOR', selector));
    await expect(panel.getByTestId('table-selection')).toHaveAttribute('data-selector', selector);
  };
  await clickColumn('#statement-rows > tr:nth-of-type(1) > td:nth-of-type(1)');
  await panel.getByLabel('Column label').fill('Name');
  await panel.getByRole('button', { name: 'Add column' }).click();
  await clickColumn('#statement-rows > tr:nth-of-type(1) > td:nth-of-type(4) > a');
  await panel.getByLabel('Column label').fill('Statement');
  await panel.getByRole('combobox', { name: 'Column type' }).click();
  await page.getByRole('option', { name: 'File' }).click();
  // The type menu's backdrop stays while it closes and takes a click made then: twice in full runs
  // (2026-12-07) Add column was pressed into it and the column, its form filled, was never added.
  await expect(page.getByRole('listbox')).toBeHidden();
  await panel.getByRole('button', { name: 'Add column' }).click();
  await expect(panel.getByRole('button', { name: 'Remove column Statement' })).toBeVisible();
  // The table has two pages: its Next button (outside the table) is clicked after each page.
  await selectOnPage('#next-page');
  await panel.getByRole('button', { name: 'Use selection as next-page button' }).click();
  await expect(panel.getByTestId('next-page-button')).toHaveText('After each page, clicks button "Next"');
  await panel.getByLabel('Most pages').fill('5');
  await panel.getByRole('button', { name: 'Finish' }).click();
  await expect(card(page, 90)).toBeVisible({ timeout: 30_000 });

  // Save needs a validation first.
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(MESSAGES['extractor.must.validate'])).toBeVisible();

  await page.getByRole('button', { name: 'Validate' }).click();
  await expect(page.getByTestId('validation-progress')).toBeVisible();
  await expect(page.getByRole('progressbar', { name: 'Validate' })).toBeVisible();
  await expect(page.getByText(MESSAGES['extractor.validate.success'])).toBeVisible({ timeout: 120_000 });
  for (const sequence of [10, 20, 30, 40, 50, 60, 70, 80, 90])
    await expect(card(page, sequence)).toHaveAttribute('data-validation', 'SUCCESS');

  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(MESSAGES['extractor.save.success'])).toBeVisible();

  await page.getByTestId('builder').getByRole('button', { name: 'Close', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // Back on the dashboard, the saved flow executes to SUCCESS; its status marker opens what the
  // run read, step by step.
  const flow = extractorRow(page, 'Recorded by clicking');
  await executeFromDashboard(page, 'Recorded by clicking');
  const results = await openRunResults(page, 'Recorded by clicking');
  await expect(results.getByTestId('run-status')).toHaveText('Success');
  const step = (name: string) => results.getByRole('listitem', { name, exact: true });
  await expect(step('Step 50: Get text')).toContainText('Welcome, ops-user');
  await expect(step('Step 60: Script')).toContainText('17');
  const table = step('Step 90: Get table').getByRole('table');
  await expect(table.getByRole('columnheader', { name: 'Statement (File)' })).toBeVisible();
  await expect(table.getByRole('row', { name: /Alice Martin/ })).toBeVisible();
  await expect(table.getByRole('row', { name: /Bruno Costa/ })).toBeVisible();
  // The second page's rows too, read after clicking Next.
  await expect(table.getByRole('row', { name: /Jonas Berg/ })).toBeVisible();
  // A FILE cell downloads the file the run kept, with the session.
  const download = page.waitForEvent('download');
  await table
    .getByRole('row', { name: /Alice Martin/ })
    .getByRole('button', { name: /^Download statement-1\.pdf/ })
    .click();
  expect((await download).suggestedFilename()).toBe('statement-1.pdf');
  // The page HTML is text to read, never a rendered page.
  await step('Step 50: Get text').getByRole('button', { name: 'Page HTML' }).click();
  const html = page.getByRole('dialog', { name: 'Step 50: page HTML' });
  await expect(html).toContainText('<');
  await expect(html).toContainText('Welcome, ops-user');
  await page.keyboard.press('Escape');
  await expect(html).toBeHidden();
  await page.keyboard.press('Escape');
  await expect(results).toBeHidden();

  // Editing the saved item: the live page replays to where the flow ends, not about:blank.
  await flow.getByRole('button', { name: 'More actions for Recorded by clicking' }).click();
  await page.getByRole('menuitem', { name: 'Edit', exact: true }).click();
  await expect(page.getByTestId('replay-banner')).toBeVisible();
  await expect(page.getByTestId('replay-banner')).toBeHidden({ timeout: 120_000 });
  const livePage = () => api<NormalizedPage>(token, '/extractor/normalized/current?extractorType=EXTRACTOR');
  expect((await livePage()).pageURL).toBe(`${site.url}/pages/table.html`);
  // Editing a step brings the page to where that step found it: the filled sign-in form.
  await page.getByRole('button', { name: 'Actions of step 40' }).click();
  await page.getByRole('menuitem', { name: 'Edit', exact: true }).click();
  await expect(dialog(page)).toBeVisible({ timeout: 120_000 });
  const atStep40 = await livePage();
  expect(atStep40.pageURL).toBe(`${site.url}/pages/login.html`);
  expect(atStep40.areas.some((area) => area.selector === '#login-submit')).toBe(true);
  await dialog(page).getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog(page)).toHaveCount(0);
});

test('a validation that fails marks the failing card ERROR with the server message', async ({ page }) => {
  test.setTimeout(360_000);
  const user = await signIn(page, 'builder-e2e-fail');
  const token = user.accessToken;
  const id = await startItem(token, 'EXTRACTOR', 'Element changed');
  const add = (body: unknown) => api(token, '/extractor/?extractorType=EXTRACTOR', { method: 'POST', body });
  await add({ type: 'NAVIGATE', textValue: `${site.url}/pages/login.html` });
  await add({ type: 'TYPE_TEXT', target: { selectorValue: '#username' }, textValue: 'ops-user' });
  await add({ type: 'GET_TEXT', label: 'Title', target: { selectorValue: 'h1' } });
  // The site changed: the same form now has other ids, and the recorded selector has no fallback.
  await api(token, '/extractor/action?extractorType=EXTRACTOR', {
    method: 'POST',
    body: { sequence: 10, textValue: `${site.url}/pages/changed-ids.html` },
  });

  await page.goto(`/extractor?id=${id}`);
  await expect(card(page, 20)).toHaveAttribute('data-validation', 'NOTVALIDATED');
  await page.getByRole('button', { name: 'Validate' }).click();
  const error = page.getByRole('dialog', { name: 'Error' });
  await expect(error).toBeVisible({ timeout: 120_000 });
  await expect(error).toContainText('No Such Element (100007)');
  await error.getByRole('button', { name: 'OK' }).click();
  await expect(card(page, 10)).toHaveAttribute('data-validation', 'SUCCESS');
  await expect(card(page, 20)).toHaveAttribute('data-validation', 'ERROR');
  await expect(card(page, 20)).toContainText('No Such Element (100007)');
  await expect(card(page, 30)).toHaveAttribute('data-validation', 'NOTVALIDATED');
  await expect(page.getByTestId('builder')).toHaveAttribute('data-builder-state', 'NONE');

  // Home finishes the builder's session (spec): its browser does not idle on.
  await page.getByRole('navigation', { name: 'breadcrumb' }).getByRole('link', { name: 'Home' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect
    .poll(() =>
      api(token, '/extractor/current?extractorType=EXTRACTOR').then(
        () => 'open',
        (error: Error) => error.message,
      ),
    )
    .toContain('404');
});

test('a dialog the page opens is answered over the page view, recorded after its step and given on every run', async ({
  page,
}) => {
  test.setTimeout(360_000);
  const { token } = await recordFrom(
    page,
    'builder-e2e-confirm',
    'EXTRACTOR',
    'Places an order',
    'order.html',
  );

  // The submit asks confirm('Place order?'): the builder shows it, the operator says OK.
  await pickAndOpen(page, token, 'EXTRACTOR', 'Click', '#place-order');
  await dialog(page).getByRole('button', { name: 'Confirm' }).click();
  const asked = page.getByRole('dialog', { name: 'The page asks' });
  await expect(asked).toBeVisible({ timeout: 60_000 });
  await expect(asked).toContainText('Place order?');
  await asked.getByRole('button', { name: 'OK' }).click();
  await expect(card(page, 20)).toBeVisible({ timeout: 30_000 });
  await expect(card(page, 21)).toContainText('Answer dialog');
  await expect(card(page, 21)).toContainText('The page asked "Place order?" → OK');

  await pickAndOpen(page, token, 'EXTRACTOR', 'Get text', '#order-result');
  await dialog(page).getByLabel('Label').fill('Result');
  await confirm(page, 30);

  // A prompt(): the answer is typed over the page view and recorded with the text.
  await pickAndOpen(page, token, 'EXTRACTOR', 'Click', '#rename-item');
  await dialog(page).getByRole('button', { name: 'Confirm' }).click();
  const prompt = page.getByRole('dialog', { name: 'The page asks for an answer' });
  await expect(prompt).toBeVisible({ timeout: 60_000 });
  await expect(prompt.getByLabel('Answer')).toHaveValue('Widget');
  await prompt.getByLabel('Answer').fill('Gizmo');
  await prompt.getByRole('button', { name: 'OK' }).click();
  await expect(card(page, 41)).toContainText('The page asked "New name?" → "Gizmo"');

  // A run from a fresh page gives both recorded answers.
  await validateSaveAndClose(page, [10, 20, 21, 30, 40, 41]);
  await executeFromDashboard(page, 'Places an order');
  const results = await openRunResults(page, 'Places an order');
  const step = (name: string) => results.getByRole('listitem', { name, exact: true });
  // The order was placed (OK was given), and the dialog's text is a value like any read.
  await expect(step('Step 21: Answer dialog')).toContainText('Place order?');
  await expect(step('Step 30: Get text')).toContainText('Order placed: Widget');
  await results.getByRole('button', { name: 'Close' }).click();
  // Its closing backdrop would take the next click.
  await expect(results).toBeHidden();

  // Without its answer the click fails with the page's question, never SUCCESS.
  await extractorRow(page, 'Places an order')
    .getByRole('button', { name: 'More actions for Places an order' })
    .click();
  await page.getByRole('menuitem', { name: 'Edit', exact: true }).click();
  await expect(card(page, 21)).toBeVisible();
  await page.getByRole('button', { name: 'Actions of step 21' }).click();
  await page.getByRole('menuitem', { name: 'Remove' }).click();
  await expect(card(page, 21)).toHaveCount(0);
  await page.getByRole('button', { name: 'Validate' }).click();
  const error = page.getByRole('dialog', { name: 'Error' });
  await expect(error).toBeVisible({ timeout: 120_000 });
  await expect(error).toContainText(
    "Unexpected Alert Open (100026): The page asked: 'Place order?' — no answer was recorded",
  );
  await error.getByRole('button', { name: 'OK' }).click();
  await expect(card(page, 20)).toHaveAttribute('data-validation', 'ERROR');
});

test('an insertor sets a native select, checks that its save landed, and a refused save fails on that check', async ({
  page,
}) => {
  test.setTimeout(360_000);
  const { token } = await recordFrom(
    page,
    'builder-e2e-insertor',
    'INSERTOR',
    'Updates an item',
    'edit-item.html',
  );

  await pickAndOpen(page, token, 'INSERTOR', 'Type text', '#item-name');
  await dialog(page).getByLabel('Text').fill('Gizmo');
  await confirm(page, 20);

  // A native list is set with Select option, offered with the list's own options.
  await pickAndOpen(page, token, 'INSERTOR', 'Select option', '#item-category');
  await dialog(page).getByRole('combobox', { name: 'Option' }).click();
  await expect(page.getByRole('option')).toHaveText(['(none)', 'Hardware', 'Tools', 'Garden']);
  await page.getByRole('option', { name: 'Tools', exact: true }).click();
  await confirm(page, 30);

  await pickAndOpen(page, token, 'INSERTOR', 'Click', '#item-save');
  await confirm(page, 40);

  // Check text: the run fails unless the page says the save landed.
  await chooseAction(page, 'Check text');
  await dialog(page).getByLabel('Text the page must show').fill('Item has been updated.');
  await dialog(page).getByLabel('Timeout (seconds)').fill('3');
  await confirm(page, 50);
  await expect(card(page, 50)).toContainText('The page must show "Item has been updated."');

  await page.getByRole('button', { name: 'Validate' }).click();
  await expect(page.getByText(MESSAGES['insertor.validate.success'])).toBeVisible({ timeout: 120_000 });
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(MESSAGES['insertor.save.success'])).toBeVisible();

  // A name the site refuses: the click "worked", the save did not, and the run says so.
  await page.getByRole('button', { name: 'Actions of step 20' }).click();
  await page.getByRole('menuitem', { name: 'Edit', exact: true }).click();
  await dialog(page).getByLabel('Text').fill('A name far too long for the column');
  await dialog(page).getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog(page)).toHaveCount(0);
  await page.getByRole('button', { name: 'Validate' }).click();
  const error = page.getByRole('dialog', { name: 'Error' });
  await expect(error).toBeVisible({ timeout: 120_000 });
  await expect(error).toContainText(
    "No Such Element (100007): The page did not show 'Item has been updated.' within 3 s",
  );
  await error.getByRole('button', { name: 'OK' }).click();
  await expect(card(page, 40)).toHaveAttribute('data-validation', 'SUCCESS');
  await expect(card(page, 50)).toHaveAttribute('data-validation', 'ERROR');
});

test('Ask password is tied to the field picked first, typed while recording, and asked and typed on every run', async ({
  page,
}) => {
  test.setTimeout(360_000);
  const { token } = await recordFrom(page, 'builder-e2e-ask', 'EXTRACTOR', 'Asks the password', 'login.html');
  await pickAndOpen(page, token, 'EXTRACTOR', 'Type text', '#username');
  await dialog(page).getByLabel('Text').fill('ops-user');
  await confirm(page, 20);

  // The field is picked first, as for Type password; the answer given now is typed, never kept.
  await pickAndOpen(page, token, 'EXTRACTOR', 'Ask password', '#password');
  await dialog(page).getByLabel('Label').fill('Site password');
  await dialog(page).getByLabel('Question').fill('Password of ops-user?');
  await dialog(page).getByLabel('Answer now').fill(FIXTURE_PASSWORD);
  await confirm(page, 30);
  await expect(card(page, 30)).toContainText('Site password');
  await expect(card(page, 30)).not.toContainText('No field is picked');

  await pickAndOpen(page, token, 'EXTRACTOR', 'Click', '#login-submit');
  await confirm(page, 40);
  await pickAndOpen(page, token, 'EXTRACTOR', 'Get text', '#welcome');
  await dialog(page).getByLabel('Label').fill('Welcome');
  await confirm(page, 50);

  // Validation runs from a fresh page: it asks, and the answer goes into the picked field.
  await page.getByRole('button', { name: 'Validate' }).click();
  const validationAsk = page.getByRole('dialog', { name: 'Site password' });
  await expect(validationAsk).toBeVisible({ timeout: 60_000 });
  await validationAsk.getByLabel('Answer').fill(FIXTURE_PASSWORD);
  await validationAsk.getByLabel('Answer').press('Enter');
  await expect(page.getByText(MESSAGES['extractor.validate.success'])).toBeVisible({ timeout: 120_000 });
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(MESSAGES['extractor.save.success'])).toBeVisible();
  await page.getByTestId('builder').getByRole('button', { name: 'Close', exact: true }).click();

  await executeFromDashboard(page, 'Asks the password');
  const runAsk = page.getByRole('dialog', { name: 'Site password' });
  await expect(runAsk).toBeVisible({ timeout: 60_000 });
  await expect(runAsk).toContainText('Password of ops-user?');
  await runAsk.getByLabel('Answer').fill(FIXTURE_PASSWORD);
  await runAsk.getByLabel('Answer').press('Enter');
  const results = await openRunResults(page, 'Asks the password');
  await expect(results.getByRole('listitem', { name: 'Step 50: Get text', exact: true })).toContainText(
    'Welcome, ops-user',
  );
});

test('a run that found an element through a fallback says so, and one click makes its locator the step’s own', async ({
  page,
}) => {
  test.setTimeout(360_000);
  const { token, id } = await recordFrom(
    page,
    'builder-e2e-fallback',
    'EXTRACTOR',
    'Ids change',
    'login.html',
  );
  await pickAndOpen(page, token, 'EXTRACTOR', 'Type text', '#username');
  await dialog(page).getByLabel('Text').fill('ops-user');
  await confirm(page, 20);

  // The site is redeployed: same form, new ids (changed-ids.html).
  await page.getByRole('button', { name: 'Actions of step 10' }).click();
  await page.getByRole('menuitem', { name: 'Edit', exact: true }).click();
  await dialog(page).getByLabel('URL').fill(`${site.url}/pages/changed-ids.html`);
  await dialog(page).getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog(page)).toHaveCount(0);
  await page.getByRole('button', { name: 'Validate' }).click();
  await expect(page.getByText(MESSAGES['extractor.validate.success'])).toBeVisible({ timeout: 120_000 });
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(MESSAGES['extractor.save.success'])).toBeVisible();
  await page.getByTestId('builder').getByRole('button', { name: 'Close', exact: true }).click();

  const flow = page
    .getByTestId('panel-extractors')
    .getByRole('listitem', { name: 'Ids change', exact: true });
  const lastRun = async () =>
    (await api<{ id: string; lastRunId: string | null }[]>(token, '/extractor?extractorType=EXTRACTOR')).find(
      (item) => item.id === id,
    )?.lastRunId ?? null;
  const executeAndOpen = async () => {
    const before = await lastRun();
    await flow.getByRole('button', { name: 'More actions for Ids change' }).click();
    await page.getByRole('menuitem', { name: 'Execute' }).click();
    // The results must be this run's, not the previous one's: wait for it to end, then read the list.
    await expect.poll(lastRun, { timeout: 30_000 }).not.toBe(before);
    const runId = (await lastRun())!;
    await expect
      .poll(async () => (await api<{ status: string }>(token, `/extractor/run/${runId}`)).status, {
        timeout: 120_000,
      })
      .toBe('SUCCESS');
    await page.reload();
    await expect(flow).toHaveAttribute('data-status', 'SUCCESS');
    await flow.getByRole('button', { name: 'Results of the last run of Ids change' }).click();
    return page.getByRole('dialog', { name: /Run results: Ids change/ });
  };
  let results = await executeAndOpen();
  const typed = results.getByRole('listitem', { name: 'Step 20: Type text', exact: true });
  await expect(typed).toContainText(
    'Its recorded selector no longer matched: the element was found by test id "login-username" (now #u-4c2).',
  );
  await typed.getByRole('button', { name: 'Use this locator from now on' }).click();
  await expect(page.getByText('From now on this step looks for its element at #u-4c2.')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(results).toBeHidden();

  // The next run finds it by its own selector: no notice.
  results = await executeAndOpen();
  await expect(results.getByRole('listitem', { name: 'Step 20: Type text', exact: true })).toBeVisible();
  await expect(results.getByText('Its recorded selector no longer matched')).toHaveCount(0);
});

test('the wheel over the page view scrolls the live page as a recorded step, so a pager below the fold can be picked', async ({
  page,
}) => {
  test.setTimeout(360_000);
  const { token } = await recordFrom(
    page,
    'builder-e2e-wheel',
    'EXTRACTOR',
    'Reads every user',
    'long-table.html',
  );
  const pager = async () =>
    (await api<NormalizedPage>(token, '/extractor/normalized/current?extractorType=EXTRACTOR')).areas.find(
      (area) => area.selector === '#users-next',
    );
  const view = page.getByTestId('page-view');
  const height = Number(await view.getAttribute('data-frame-height'));
  expect((await pager())!.y).toBeGreaterThan(height);

  // The wheel over the picture: the builder does not scroll, the live page does, as a step.
  const picture = page.getByTestId('page-picture');
  const box = (await picture.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, 300);
  await expect(card(page, 20)).toContainText('Scroll down', { timeout: 30_000 });
  await expect(card(page, 20)).toContainText(/By \d+ px/);
  await expect.poll(async () => (await pager())!.y, { timeout: 30_000 }).toBeLessThan(height);

  // The pager is on the page view now: picked and clicked like anything else.
  await pickAndOpen(page, token, 'EXTRACTOR', 'Click', '#users-next');
  await confirm(page, 30);
  await expect
    .poll(
      async () =>
        (
          await api<NormalizedPage>(token, '/extractor/normalized/current?extractorType=EXTRACTOR')
        ).areas.find((area) => area.selector === '#users-page')?.textContent,
    )
    .toBe('Page 2 of 2');
});

test('Get table beside the page view: the cell that found the row becomes a column, and the wheel brings up the pager below the fold', async ({
  page,
}) => {
  test.setTimeout(420_000);
  const { token } = await recordFrom(page, 'builder-e2e-table', 'EXTRACTOR', 'Every user', 'long-table.html');
  await chooseAction(page, 'Get table');
  await dialog(page).getByLabel('Table name').fill('Users');
  await dialog(page).getByRole('button', { name: 'Confirm' }).click();
  const panel = page.getByRole('region', { name: 'Get table: Users' });
  await expect(panel).toBeVisible();
  // The panel stands beside the page view, both on screen.
  const picture = page.getByTestId('page-picture');
  const [panelBox, pictureBox] = [(await panel.boundingBox())!, (await picture.boundingBox())!];
  expect(panelBox.x + panelBox.width).toBeLessThanOrEqual(pictureBox.x);
  expect(panelBox.y).toBeLessThan(page.viewportSize()!.height);
  const scrolledBefore = await page.evaluate(() => window.scrollY);

  // The cell "User 1" finds the table (three climbs) and its row (one climb)...
  const cell = '#user-rows > tr:nth-of-type(1) > td:nth-of-type(1)';
  await selectInTable(page, token, panel, cell, '#users');
  await panel.getByRole('button', { name: 'Next' }).click();
  await selectInTable(page, token, panel, cell, '#user-rows > tr:nth-of-type(1)');
  await expect(panel.getByTestId('table-row-count')).toHaveText('25 rows like this one on this page');
  await panel.getByRole('button', { name: 'Next' }).click();
  await expect(panel.getByTestId('table-rows')).toContainText('25 rows on this page');
  // ...and, clicked once more, becomes the first column: elements are named as people read them.
  await selectInTable(page, token, panel, cell);
  await expect(panel.getByTestId('table-selection')).toHaveText('Selected: td "User 1"');
  await panel.getByLabel('Column label').fill('User');
  await panel.getByRole('button', { name: 'Add column' }).click();
  await selectInTable(page, token, panel, '#user-rows > tr:nth-of-type(1) > td:nth-of-type(2)');
  await panel.getByLabel('Column label').fill('Edits');
  await panel.getByRole('button', { name: 'Add column' }).click();
  await expect(panel.getByRole('list', { name: 'Columns' })).toContainText('First row: "User 1"');

  // The pager is below the fold: the wheel over the page view moves the live page, records nothing.
  const pagerTop = async () =>
    (await api<NormalizedPage>(token, '/extractor/normalized/current?extractorType=EXTRACTOR')).areas.find(
      (area) => area.selector === '#users-next',
    )!.y;
  const height = Number(await page.getByTestId('page-view').getAttribute('data-frame-height'));
  expect(await pagerTop()).toBeGreaterThan(height);
  const box = (await picture.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, 400);
  await expect.poll(pagerTop, { timeout: 30_000 }).toBeLessThan(height - 20);
  await selectInTable(page, token, panel, '#users-next');
  await panel.getByRole('button', { name: 'Use selection as next-page button' }).click();
  await expect(panel.getByTestId('next-page-button')).toHaveText(
    'After each page, clicks button "Next page"',
  );
  await panel.getByLabel('Most pages').fill('5');
  await panel.getByRole('button', { name: 'Finish' }).click();

  // One step, told as a person reads it; the app itself did not scroll while picking.
  await expect(card(page, 20)).toContainText(
    '2 columns (User, Edits) · 25 rows when recorded · up to 5 pages',
    {
      timeout: 30_000,
    },
  );
  await expect(card(page, 30)).toHaveCount(0);
  expect(await page.evaluate(() => window.scrollY)).toBe(scrolledBefore);

  await validateSaveAndClose(page, [10, 20]);
  await executeFromDashboard(page, 'Every user');
  const results = await openRunResults(page, 'Every user');
  const table = results.getByRole('listitem', { name: 'Step 20: Get table', exact: true }).getByRole('table');
  // Both pages: 41 users, the second page's read after clicking the pager.
  await expect(table.getByRole('row', { name: /User 1\b/ }).first()).toBeVisible();
  await expect(table.getByRole('row', { name: /User 41/ })).toBeVisible();
});

test('a navigator is recorded by clicking and typing on the live page', async ({ page }) => {
  test.setTimeout(180_000);
  const user = await signIn(page, 'builder-e2e-nav');
  const token = user.accessToken;
  const id = await startItem(token, 'NAVIGATOR', 'Live session', user.username);
  await page.goto(`/screen-share-executor?id=${id}`);
  await expect(page.getByRole('heading', { name: 'Live session' })).toBeVisible();
  // Navigators record without Validate or Resequence.
  await expect(page.getByRole('button', { name: 'Validate' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Resequence' })).toHaveCount(0);

  await chooseAction(page, 'Navigate');
  await dialog(page).getByLabel('URL').fill(`${site.url}/pages/login.html`);
  await confirm(page, 10);

  await clickOnPage(page, await centreOf(token, 'NAVIGATOR', '#username'));
  await expect(card(page, 20)).toContainText('Mouse click');
  await page.keyboard.type('ops-user');
  await expect(page.getByText('Typing: ops-user')).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(card(page, 30)).toContainText('Type text');

  const view = await api<BuilderView>(token, '/extractor/current?extractorType=NAVIGATOR');
  expect(view.actions.map((action) => action.type)).toEqual(['NAVIGATE', 'MOUSE_CLICK', 'TYPE_TEXT']);
  expect(view.actions[2]).toMatchObject({ textValue: 'ops-user', selectorValue: '#username' });

  await page.getByTestId('builder').getByRole('button', { name: 'Close', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('without an item the extractor editor goes to the dashboard and the navigator editor to /', async ({
  page,
}) => {
  await signIn(page, 'builder-e2e-none');
  await page.goto('/extractor');
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/screen-share-executor');
  // "/" itself redirects a signed-in user on to the dashboard.
  await expect(page).toHaveURL(/\/dashboard$/);
});
