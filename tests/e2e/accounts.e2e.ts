import { randomBytes } from 'node:crypto';
import { MESSAGES, formatMessage } from '@pagewright/shared';
import { createConfirmedUser } from '../support/accounts.js';
import { withDatabase } from '../support/test-database.js';
import { confirmationLink, temporaryPassword } from '../support/inbox.js';
import { GOOD_PASSWORD, NEW_PASSWORD, expect, loginThroughUi, signUpThroughUi, test } from './fixtures.js';

const email = (label: string) => `${label}.${Date.now()}.${randomBytes(2).toString('hex')}@example.com`;

test('sign up, confirm from the e-mail, sign in with remember-me, change the password, log out', async ({
  page,
  inbox,
}) => {
  const address = email('e2e');
  await signUpThroughUi(page, address);
  await expect(page.getByText(MESSAGES['signup.check.email'])).toBeVisible();
  await expect(page).toHaveURL(/\/welcome$/);

  // The confirmation link from the e-mail opens the SPA, which confirms and returns to login.
  await page.goto(confirmationLink(await inbox.latest(address, 'Confirm')));
  await expect(page.getByText(MESSAGES['confirmation.success'])).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  await loginThroughUi(page, address, GOOD_PASSWORD, true);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('panel-extractors')).toBeVisible();
  await expect(page.getByTestId('panel-navigators')).toBeVisible();
  // The scheduler panel is off by default.
  await expect(page.getByTestId('panel-scheduler')).toHaveCount(0);
  await expect(page.getByTestId('version-label')).toContainText('0.15.1');

  // Change the password in settings.
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await expect(page).toHaveURL(/\/settings/);
  await page.getByRole('button', { name: 'Change password' }).first().click();
  await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel('Retype new password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Change password' }).last().click();
  await expect(page.getByText(MESSAGES['password.changed'])).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);

  // Logout, and remember-me keeps the e-mail on the login screen.
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByLabel('E-mail')).toHaveValue(address);
  await expect(page.getByLabel('Remember me')).toBeChecked();

  // The old password no longer works; the new one does.
  await loginThroughUi(page, address, GOOD_PASSWORD);
  await expect(page.getByText(MESSAGES['login.error.credentials'])).toBeVisible();
  await loginThroughUi(page, address, NEW_PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('sign-up shows the spec texts for bad input and a taken e-mail', async ({ page, inbox }) => {
  const address = email('taken');
  await signUpThroughUi(page, address);
  await expect(page).toHaveURL(/\/welcome$/);
  await inbox.latest(address, 'Confirm');

  await page.goto('/signUp');
  await page.getByLabel('E-mail').fill('not-an-email');
  await page.getByLabel('Password', { exact: true }).fill('short');
  await page.getByLabel('Retype password').fill('different');
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText(MESSAGES['signup.email.invalid'])).toBeVisible();
  await expect(page.getByText(MESSAGES['signup.password.rule']).first()).toBeVisible();
  await expect(page.getByText(MESSAGES['signup.password.different'])).toBeVisible();
  await expect(page.getByText(MESSAGES['signup.complete.fields'])).toBeVisible();

  await page.getByLabel('E-mail').fill(address);
  await expect(page.getByText(MESSAGES['signup.email.exists'])).toBeVisible({ timeout: 5000 });
});

test('forgot password: the temporary password signs in to the change-password form only', async ({
  page,
  inbox,
}) => {
  const address = email('forgot');
  await signUpThroughUi(page, address);
  await page.goto(confirmationLink(await inbox.latest(address, 'Confirm')));
  await expect(page).toHaveURL(/\/login$/);

  await page.goto('/forgotPassword');
  await page.getByLabel('E-mail').fill(address);
  await page.getByLabel('E-mail').press('Enter');
  await expect(page.getByText(MESSAGES['forgot.check.email']).first()).toBeVisible();
  await page.getByRole('button', { name: 'Return to login' }).click();
  await expect(page).toHaveURL(/\/login$/);

  await loginThroughUi(page, address, temporaryPassword(await inbox.latest(address, 'temporary password')));
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByLabel('New password', { exact: true })).toBeVisible();
  await expect(page.getByTestId('panel-extractors')).toHaveCount(0);

  await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel('Retype new password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Change password' }).last().click();
  await expect(page.getByText(MESSAGES['password.changed'])).toBeVisible();
  await expect(page.getByTestId('panel-extractors')).toBeVisible();
});

test.describe('password expiry at sign-in', () => {
  const agePassword = (address: string, days: number) =>
    withDatabase(process.env.PW_E2E_DATABASE_URL!, (db) =>
      db.query(`UPDATE "User" SET "passwordChangedAt" = now() - make_interval(days => $2) WHERE email = $1`, [
        address,
        days,
      ]),
    );

  test('with 14 days or fewer left it warns, then opens the dashboard', async ({ page }) => {
    const user = await createConfirmedUser(
      process.env.PW_E2E_BASE_URL!,
      process.env.PW_E2E_MAIL_URL!,
      'expiring',
    );
    await agePassword(user.username, 80);
    await loginThroughUi(page, user.username, GOOD_PASSWORD);
    await expect(
      page.getByText(formatMessage('login.warning.password.expiring', { days: 10 })),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('an expired password opens settings with the change-password card already open', async ({ page }) => {
    const user = await createConfirmedUser(
      process.env.PW_E2E_BASE_URL!,
      process.env.PW_E2E_MAIL_URL!,
      'expired',
    );
    await agePassword(user.username, 91);
    await loginThroughUi(page, user.username, GOOD_PASSWORD);
    await expect(page.getByText(MESSAGES['login.error.password.expired'])).toBeVisible();
    await expect(page).toHaveURL(/\/settings/);
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Retype new password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).last().click();
    await expect(page.getByText(MESSAGES['password.changed'])).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByTestId('panel-extractors')).toBeVisible();
  });
});
