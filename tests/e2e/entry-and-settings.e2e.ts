import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { DASHBOARD_PANELS, FENGINE_VISIBLE_PANELS, MESSAGES } from '@pagewright/shared';
import { createConfirmedUser } from '../support/accounts.js';
import { GOOD_PASSWORD, expect, loginThroughUi, test } from './fixtures.js';
import { E2E_FENGINE_AUDIENCE, E2E_FENGINE_ISSUER } from './global-setup.js';

const apiUrl = () => process.env.PW_E2E_BASE_URL!;
const mailUrl = () => process.env.PW_E2E_MAIL_URL!;

test('an F-engine entry with a malformed token shows the error and goes to login', async ({ page }) => {
  await page.goto(`/screen-share-fengine/not-a-jwt-${randomBytes(4).toString('hex')}`);
  await expect(page.getByText(MESSAGES['error.invalid.token.parameter'])).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

/** A token the F-engine of the e2e stack signs (tests/e2e/global-setup.ts) for one of its users. */
function engineToken(email: string): Promise<string> {
  return new SignJWT({ email, given_name: 'Fenna', family_name: 'Engine' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(`engine-user-${randomBytes(6).toString('hex')}`)
    .setIssuer(E2E_FENGINE_ISSUER)
    .setAudience(E2E_FENGINE_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode(process.env.PW_E2E_FENGINE_JWT_SECRET!));
}

test('an F-engine entry with a token the engine signed opens the dashboard in remote-engine mode', async ({
  page,
}) => {
  const token = await engineToken(`fengine.${randomBytes(4).toString('hex')}@example.com`);
  await page.goto(`/screen-share-fengine/${token}`);
  await expect(page).toHaveURL(/\/dashboard$/);
  // Remote-engine mode hides the top bar; the F-engine flag keeps only messaging and navigators.
  await expect(page.getByTestId('panel-messaging')).toBeVisible();
  await expect(page.getByTestId('panel-navigators')).toBeVisible();
  for (const panel of DASHBOARD_PANELS.filter(({ id }) => !FENGINE_VISIBLE_PANELS.includes(id)))
    await expect(page.getByTestId(`panel-${panel.id}`)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Logout' })).toHaveCount(0);
  // The session is Pagewright's own (it refreshes like any other), not the engine's token.
  const stored = await page.evaluate(() => ({
    accessToken: localStorage.getItem('accessToken'),
    refreshToken: localStorage.getItem('refreshToken'),
    fengine: localStorage.getItem('fengine'),
    messaging: localStorage.getItem('messaging'),
  }));
  expect(stored).toMatchObject({ fengine: 'true', messaging: null });
  expect(stored.accessToken).not.toBe(token);
  expect(stored.refreshToken).toBeTruthy();
});

test('an F-engine entry with a tampered token shows the error and goes to login', async ({ page }) => {
  const [header, , signature] = (await engineToken('tampered@example.com')).split('.');
  const payload = Buffer.from(
    JSON.stringify({
      sub: 'someone-else',
      email: 'victim@example.com',
      exp: Math.floor(Date.now() / 1000) + 300,
    }),
  ).toString('base64url');
  await page.goto(`/messaging-fengine/${header}.${payload}.${signature}`);
  await expect(page.getByText(MESSAGES['error.invalid.token.parameter'])).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('accessToken'))).toBeNull();
});

test('the dashboard shows the panels the settings switch on', async ({ page }) => {
  const user = await createConfirmedUser(apiUrl(), mailUrl(), 'panels');
  await loginThroughUi(page, user.username, GOOD_PASSWORD);
  await expect(page.getByTestId('panel-insertors')).toBeVisible();
  await expect(page.getByTestId('panel-scheduler')).toHaveCount(0);

  await page.goto('/settings');
  await page.getByLabel('Scheduler').check();
  await page.getByLabel('Insertors').uncheck();
  await expect(page.getByLabel('Insertors')).not.toBeChecked();
  await page.goto('/dashboard');
  await expect(page.getByTestId('panel-scheduler')).toBeVisible();
  await expect(page.getByTestId('panel-insertors')).toHaveCount(0);

  // Saved on the server: a fresh sign-in elsewhere sees the same panels.
  const settings = await (
    await fetch(`${apiUrl()}/api/user/settings`, { headers: { authorization: `Bearer ${user.accessToken}` } })
  ).json();
  expect(settings).toMatchObject({ showScheduler: 'true', showDataInserter: 'false' });
});

test('the help page serves the three release-note PDFs', async ({ page, request }) => {
  const user = await createConfirmedUser(apiUrl(), mailUrl(), 'help');
  await loginThroughUi(page, user.username, GOOD_PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/help');
  for (const id of ['extractor', 'data-insertor', 'screen-share']) {
    const href = await page.getByTestId(`release-notes-${id}`).getByRole('link').first().getAttribute('href');
    expect(href).toMatch(/\.pdf$/);
    const pdf = await request.get(href!);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toContain('application/pdf');
    expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');
  }
});

test('a new browser session without remember-me starts signed out; with remember-me it stays in', async ({
  browser,
}) => {
  const baseURL = apiUrl();
  for (const rememberMe of [false, true]) {
    const user = await createConfirmedUser(apiUrl(), mailUrl(), rememberMe ? 'remembered' : 'forgotten');
    const first = await browser.newContext({ baseURL });
    const page = await first.newPage();
    await loginThroughUi(page, user.username, GOOD_PASSWORD, rememberMe);
    await expect(page).toHaveURL(/\/dashboard$/);
    // A browser restart keeps localStorage and loses sessionStorage.
    const storage = await first.storageState();
    await first.close();

    const restarted = await browser.newContext({ baseURL, storageState: storage });
    const again = await restarted.newPage();
    await again.goto('/dashboard');
    if (rememberMe) {
      await expect(again.getByTestId('panel-extractors')).toBeVisible();
    } else {
      await expect(again).toHaveURL(/\/login$/);
      expect(await again.evaluate(() => localStorage.getItem('accessToken'))).toBeNull();
    }
    await restarted.close();
  }
});
