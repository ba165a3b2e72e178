import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { confirmationLink } from '../support/inbox.js';
import { GOOD_PASSWORD, expect, loginThroughUi, signUpThroughUi, test } from './fixtures.js';

/**
 * The browser headers of issue 10 (security 7) hold without breaking a page: the SPA and the
 * swagger UI run under the Content-Security-Policy with no violation reported.
 */

/** Records every CSP violation the page reports, from its first script on. */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`),
    );
  });
  return () => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
}

test('the SPA and the API docs work under the Content-Security-Policy', async ({ page, inbox }) => {
  const violations = await watchViolations(page);
  const address = `csp.${Date.now()}.${randomBytes(2).toString('hex')}@example.com`;
  await signUpThroughUi(page, address);
  await page.goto(confirmationLink(await inbox.latest(address, 'Confirm')));
  await expect(page).toHaveURL(/\/login$/);
  expect(await violations()).toEqual([]);

  await loginThroughUi(page, address, GOOD_PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('button', { name: 'Help' })).toBeVisible();
  expect(await violations()).toEqual([]);
  await page.goto('/settings');
  await expect(page.getByText('Change password').first()).toBeVisible();
  expect(await violations()).toEqual([]);

  const response = await page.goto('/api/docs');
  expect(response?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  await expect(page.getByText('Pagewright API').first()).toBeVisible();
  // An operation rendered proves the UI's scripts ran under the policy: one of the public API's,
  // whose tag comes first (Swagger UI draws the long list of sections progressively).
  await expect(page.getByText('/api/v1/extractors').first()).toBeVisible({ timeout: 30_000 });
  expect(await violations()).toEqual([]);
});
