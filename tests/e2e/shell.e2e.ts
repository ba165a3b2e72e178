import { randomBytes } from 'node:crypto';
import { MESSAGES } from '@pagewright/shared';
import { confirmationLink } from '../support/inbox.js';
import { GOOD_PASSWORD, expect, loginThroughUi, signUpThroughUi, test } from './fixtures.js';

const email = (label: string) => `${label}.${Date.now()}.${randomBytes(2).toString('hex')}@example.com`;

test.describe('app shell', () => {
  let address: string;

  test.beforeAll(async ({ browser }) => {
    const page = await browser.newPage({ baseURL: process.env.PW_E2E_BASE_URL });
    address = email('shell');
    await signUpThroughUi(page, address);
    const { createInbox } = await import('../support/inbox.js');
    const mail = await createInbox(process.env.PW_E2E_MAIL_URL!).latest(address, 'Confirm');
    await page.goto(confirmationLink(mail));
    await expect(page).toHaveURL(/\/login$/);
    await page.close();
  });

  test('/login?errorToken=1 tells the user the session expired', async ({ page }) => {
    await page.goto('/login?errorToken=1');
    await expect(page.getByText(MESSAGES['login.error.session.expired'])).toBeVisible();
  });

  test('an unknown path shows the not-found screen', async ({ page }) => {
    await page.goto('/no/such/page');
    await expect(page.getByText(MESSAGES['notfound.title'])).toBeVisible();
  });

  test('breadcrumbs name the path and Home returns to the dashboard', async ({ page }) => {
    await loginThroughUi(page, address, GOOD_PASSWORD);
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.getByRole('button', { name: 'Help' }).click();
    const breadcrumbs = page.getByRole('navigation', { name: 'breadcrumb' });
    await expect(breadcrumbs).toContainText('Home');
    await expect(breadcrumbs).toContainText('Help');
    await expect(page.getByRole('link', { name: /extractor/i }).first()).toHaveAttribute('href', /\.pdf$/);
    await page.goto('/settings');
    await expect(breadcrumbs).toContainText('Settings');
    await breadcrumbs.getByText('Home').click();
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('a rejected access token is refreshed once and the call retried; a dead session goes to login', async ({
    page,
  }) => {
    await loginThroughUi(page, address, GOOD_PASSWORD);
    await expect(page.getByTestId('panel-extractors')).toBeVisible();

    // Spoil the access token: the next call gets 401, the client refreshes and carries on.
    await page.evaluate(() => localStorage.setItem('accessToken', 'spoiled.access.token'));
    await page.goto('/settings');
    await expect(page.getByTestId('user-settings')).toBeVisible();
    await page.goto('/dashboard');
    await expect(page.getByTestId('panel-extractors')).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('accessToken'))).not.toBe('spoiled.access.token');

    // Spoil both tokens: refresh fails, the session is cleared and the user lands on login.
    await page.evaluate(() => {
      localStorage.setItem('accessToken', 'spoiled.access.token');
      localStorage.setItem('refreshToken', 'spoiled-refresh-token');
    });
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/login\?errorToken=1$/);
    await expect(page.getByText(MESSAGES['login.error.session.expired'])).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('refreshToken'))).toBeNull();
  });
});
