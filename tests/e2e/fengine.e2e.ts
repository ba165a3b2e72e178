import type { Page } from '@playwright/test';
import { MESSAGES } from '@pagewright/shared';
import { startFixtureSite, type FixtureSite } from '../fixtures/site/server.js';
import { startFengineSandbox, type RunningFengineSandbox } from '../support/fengine-sandbox.js';
import {
  card,
  chooseAction,
  confirm,
  dialog,
  executeFromDashboard,
  openRunResults,
  pickAndOpen,
  signInAndOpenNewBuilder,
} from './builder-page.js';
import { expect, test } from './fixtures.js';

/**
 * Issue 25: an insertor recorded through the builder against a third-party KYC form signs in to the
 * reference F-engine, asks for an investor at run time and fills every field from that investor.
 */

let site: FixtureSite;
let engine: RunningFengineSandbox;
test.beforeAll(async () => {
  [site, engine] = await Promise.all([startFixtureSite(), startFengineSandbox({ logName: 'fengine-e2e' })]);
});
test.afterAll(async () => {
  await Promise.all([site?.close(), engine?.close()]);
});

/** Page field → the investor field chosen for it in the field dialog ("<section>: <label>"). */
const RECORDED_FIELDS: [selector: string, option: string][] = [
  ['#given', 'Identity: First name'],
  ['#family', 'Identity: Last name'],
  ['#dob', 'Identity: Date of birth'],
  ['#nationality', 'Identity: Nationality'],
  ['#city', 'Address: City'],
  ['#iban', 'Bank account: IBAN'],
  ['#sof-salary', 'KYC questionnaire: Source of funds'],
  ['#pep-yes', 'KYC questionnaire: Politically exposed person'],
  ['#risk', 'KYC questionnaire: Risk profile'],
];
const FIRST_FIELD_SEQUENCE = 60;

/** Records one sign-in ask with its answer typed now. */
async function recordSignInAsk(page: Page, title: string, label: string, answer: string, sequence: number) {
  await chooseAction(page, title);
  await dialog(page).getByLabel('Label').fill(label);
  await dialog(page).getByLabel('Question').fill(`${label}?`);
  await dialog(page).getByLabel('Answer now').fill(answer);
  await confirm(page, sequence);
}

/** Answers the run's (or validation's) asks through the ask dialog, choosing `investor`. */
async function answerAsks(page: Page, investor: string, search: string) {
  for (const [label, answer] of [
    ['Engine address', engine.url],
    ['Engine user', engine.username],
    ['Engine password', engine.password],
  ] as const) {
    const ask = page.getByRole('dialog', { name: label });
    await expect(ask).toBeVisible({ timeout: 60_000 });
    await ask.getByLabel('Answer').fill(answer);
    await ask.getByRole('button', { name: 'Confirm' }).click();
    await expect(ask).toHaveCount(0);
  }
  const investorAsk = page.getByRole('dialog', { name: 'Investor' });
  await expect(investorAsk).toBeVisible({ timeout: 60_000 });
  await investorAsk.getByRole('searchbox', { name: 'Search investors' }).fill(search);
  await investorAsk.getByRole('radio', { name: investor }).check();
  await investorAsk.getByRole('button', { name: 'Confirm' }).click();
  await expect(investorAsk).toHaveCount(0);
}

test('an F-engine insertor recorded on a KYC form types the investor chosen at run time, another one next time', async ({
  page,
}) => {
  test.setTimeout(480_000);
  const name = 'KYC onboarding';
  const { token } = await signInAndOpenNewBuilder(page, 'fengine-e2e', {
    name,
    description: 'Types an investor into the custodian form',
    extractorType: 'INSERTOR',
  });
  await chooseAction(page, 'Navigate');
  await dialog(page).getByLabel('URL').fill(`${site.url}/pages/kyc-onboarding.html`);
  await confirm(page, 10);

  // Before a sign-in the investor dialog has nobody to offer.
  await chooseAction(page, 'Ask F-engine investor');
  await expect(dialog(page)).toContainText(MESSAGES['extractor.investor.sign.in']);
  await dialog(page).getByRole('button', { name: 'Close' }).click();

  // The builder signs in once, with the answers typed now.
  await recordSignInAsk(page, 'Ask F-engine URL', 'Engine address', engine.url, 20);
  await recordSignInAsk(page, 'Ask F-engine user', 'Engine user', engine.username, 30);
  await recordSignInAsk(page, 'Ask F-engine password', 'Engine password', engine.password, 40);

  await chooseAction(page, 'Ask F-engine investor');
  const investors = dialog(page);
  await investors.getByLabel('Label').fill('Investor');
  await investors.getByRole('searchbox', { name: 'Search investors' }).fill('berg');
  await expect(investors.getByRole('radio')).toHaveCount(1);
  await investors.getByRole('radio', { name: 'Jonas Berg (PF-100002)' }).check();
  await confirm(page, 50);

  // Each field: pick it on the page view, then choose the investor field it takes.
  for (const [index, [selector, option]] of RECORDED_FIELDS.entries()) {
    await pickAndOpen(page, token, 'INSERTOR', 'Type F-engine field', selector);
    // Under load the option's click once landed while the menu was still growing open and did not
    // choose (a full run of 2026-12-08: the menu stayed open over Confirm). A person clicks again.
    await expect(async () => {
      if (!(await page.getByRole('listbox').isVisible()))
        await dialog(page).getByRole('combobox', { name: 'Investor field' }).click();
      await page.getByRole('option', { name: option, exact: true }).click({ timeout: 5_000 });
      await expect(page.getByRole('listbox')).toBeHidden({ timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    await confirm(page, FIRST_FIELD_SEQUENCE + index * 10);
  }
  await expect(card(page, FIRST_FIELD_SEQUENCE + 3 * 10)).toContainText(
    'Types the investor’s identity.nationality',
  );

  await page.getByRole('button', { name: 'Validate' }).click();
  await answerAsks(page, 'Jonas Berg (PF-100002)', 'Jonas');
  await expect(page.getByText(MESSAGES['insertor.validate.success'])).toBeVisible({ timeout: 120_000 });
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(MESSAGES['insertor.save.success'])).toBeVisible();
  await page.getByTestId('builder').getByRole('button', { name: 'Close', exact: true }).click();

  // A run asks for the investor and types every field of the one chosen.
  await executeFromDashboard(page, name, 'insertors');
  await answerAsks(page, 'Amélie Laurent (PF-100001)', 'PF-100001');
  const amelie = await openRunResults(page, name, 'SUCCESS', 'insertors');
  for (const value of ['Amélie', 'Laurent', '1984-03-12', 'French', 'Lyon', 'FR', 'Salary', 'No', 'Medium'])
    await expect(amelie).toContainText(value);
  await amelie.getByRole('button', { name: 'Close' }).first().click();

  await executeFromDashboard(page, name, 'insertors');
  await answerAsks(page, 'Jonas Berg (PF-100002)', 'Jonas');
  const jonas = await openRunResults(page, name, 'SUCCESS', 'insertors');
  for (const value of [
    'Jonas',
    'Berg',
    '1971-11-02',
    'Norwegian',
    'Oslo',
    'NO',
    'Business income',
    'Yes',
    'High',
  ])
    await expect(jonas).toContainText(value);
  await expect(jonas).not.toContainText('Amélie');
});
