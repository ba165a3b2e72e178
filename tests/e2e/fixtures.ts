import { test as base, expect, type Page } from '@playwright/test';
import { createInbox } from '../support/inbox.js';

export const GOOD_PASSWORD = 'abcd1234!x';
export const NEW_PASSWORD = 'wxyz9876#q';

interface Fixtures {
  inbox: ReturnType<typeof createInbox>;
}

export const test = base.extend<Fixtures>({
  baseURL: async ({}, use) => use(process.env.PW_E2E_BASE_URL),
  inbox: async ({}, use) => use(createInbox(process.env.PW_E2E_MAIL_URL!)),
});
export { expect };

/** Fills the sign-up screen the way a person does and submits it. */
export async function signUpThroughUi(page: Page, email: string, password = GOOD_PASSWORD) {
  await page.goto('/signUp');
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Lovelace');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Retype password').fill(password);
  await page.getByRole('button', { name: 'Create' }).click();
}

export async function loginThroughUi(page: Page, email: string, password: string, rememberMe = false) {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  if (rememberMe) await page.getByLabel('Remember me').check();
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** What the API's sign-in answered for an account (createConfirmedUser of tests/support/accounts.ts). */
export interface SignedInAccount {
  username: string;
  accessToken: string;
  refreshToken: string;
}

/**
 * Opens `path` in a tab already signed in as `account`: the session the login screen would have
 * stored, put in place before the SPA loads, as Playwright's docs recommend for tests whose subject
 * is not the sign-in (issue 37). The login screen itself is driven in accounts.e2e.ts and shell.e2e.ts.
 * Put in place once per tab: a later sign-out, refresh or sign-in of the test's own holds.
 */
export async function openSignedIn(page: Page, account: SignedInAccount, path = '/dashboard') {
  await page.addInitScript(({ username, accessToken, refreshToken }) => {
    if (sessionStorage.getItem('e2eSignedIn') !== null) return;
    sessionStorage.setItem('e2eSignedIn', 'true');
    // The keys storeLogin (apps/web/src/lib/session.ts) writes after a password sign-in.
    localStorage.setItem('accessToken', accessToken);
    localStorage.setItem('refreshToken', refreshToken);
    localStorage.setItem('username', username);
    localStorage.setItem('tempPasswordSet', 'false');
    sessionStorage.setItem('pagewrightSession', 'true');
  }, account);
  await page.goto(path);
}
