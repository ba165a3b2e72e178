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
