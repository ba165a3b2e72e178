import { createConfirmedUser } from '../support/accounts.js';
import { expect, openSignedIn, test } from './fixtures.js';

const apiUrl = () => process.env.PW_E2E_BASE_URL!;
const mailUrl = () => process.env.PW_E2E_MAIL_URL!;

test('a key created in Settings is shown once, works on /api/v1, and is refused once revoked', async ({
  page,
}) => {
  const user = await createConfirmedUser(apiUrl(), mailUrl(), 'api-key');
  await openSignedIn(page, user);
  await expect(page).toHaveURL(/\/dashboard/);
  await page.goto('/settings');

  const card = page.getByTestId('api-keys');
  await card.getByLabel('Key name').fill('Nightly export');
  await card.getByRole('button', { name: 'Create key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Your new API key' });
  await expect(dialog.getByText('Copy this key now: it will not be shown again.')).toBeVisible();
  const key = await dialog.getByTestId('created-api-key').inputValue();
  expect(key).toMatch(/^pw_[\w-]{43}$/);
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(card.getByText(`${key.slice(0, 12)}…`)).toBeVisible();
  await expect(page.locator('body')).not.toContainText(key);

  const call = () => fetch(`${apiUrl()}/api/v1/extractors`, { headers: { authorization: `Bearer ${key}` } });
  expect((await call()).status).toBe(200);

  await card.getByRole('button', { name: 'Revoke Nightly export' }).click();
  await page
    .getByRole('dialog', { name: 'Revoke the key Nightly export?' })
    .getByRole('button', { name: 'Revoke' })
    .click();
  await expect(card.getByRole('row', { name: /Nightly export/ })).toContainText('Revoked');
  expect((await call()).status).toBe(401);
});
