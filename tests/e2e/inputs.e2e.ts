import { startFixtureSite, type FixtureSite } from '../fixtures/site/server.js';
import {
  card,
  chooseAction,
  confirm,
  dialog,
  executeFromDashboard,
  openRunResults,
  pickAndOpen,
  signInAndOpenNewBuilder,
  validateSaveAndClose,
} from './builder-page.js';
import { expect, test } from './fixtures.js';

let site: FixtureSite;
test.beforeAll(async () => {
  site = await startFixtureSite();
});
test.afterAll(async () => {
  await site?.close();
});

test('"Make this an input" in the builder, then Execute asks the inputs prefilled with their defaults', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const name = 'Echo inputs';
  const { token } = await signInAndOpenNewBuilder(page, 'inputs-e2e', {
    name,
    description: 'Inputs (e2e)',
    extractorType: 'EXTRACTOR',
  });

  // The URL becomes {{input.page}}; the builder opens the recorded one (the default).
  await chooseAction(page, 'Navigate');
  await dialog(page).getByLabel('URL').fill(`${site.url}/pages/echo.html?q=recorded`);
  await dialog(page).getByLabel('Make this an input').check();
  await dialog(page).getByLabel('Input name').fill('page');
  await confirm(page, 10);
  await expect(card(page, 10)).toContainText('{{input.page}}');

  await pickAndOpen(page, token, 'EXTRACTOR', 'Type text', '#echo-input');
  await dialog(page).getByLabel('Text').fill('hello');
  await dialog(page).getByLabel('Make this an input').check();
  await dialog(page).getByLabel('Input name').fill('say');
  await confirm(page, 20);

  await pickAndOpen(page, token, 'EXTRACTOR', 'Get text', '#echo');
  await dialog(page).getByLabel('Label').fill('Echo');
  await confirm(page, 30);
  await validateSaveAndClose(page, [10, 20, 30]);

  await executeFromDashboard(page, name);
  const form = page.getByRole('dialog', { name: `Run ${name} with` });
  await expect(form.getByLabel('page (URL)')).toHaveValue(`${site.url}/pages/echo.html?q=recorded`);
  await expect(form.getByLabel('say (Text)')).toHaveValue('hello');
  await form.getByLabel('say (Text)').fill('typed from the form');
  await form.getByRole('button', { name: 'Run' }).click();
  await expect(form).toHaveCount(0);

  const results = await openRunResults(page, name);
  await expect(results.getByRole('listitem', { name: 'Step 30: Get text', exact: true })).toContainText(
    'typed from the form',
  );
  await expect(results).toContainText('say = typed from the form');
});
