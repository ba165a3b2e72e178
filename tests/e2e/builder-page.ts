import type { Locator, Page } from '@playwright/test';
import { MESSAGES, type ExtractorType, type NormalizedPage } from '@pagewright/shared';
import { createConfirmedUser } from '../support/accounts.js';
import { expect, openSignedIn } from './fixtures.js';

/**
 * Driving the action builder in e2e tests: the API beside the screen, and clicks on the live page
 * view at an element's place (the view shows a scaled picture of the remote page).
 */

export const apiUrl = () => process.env.PW_E2E_BASE_URL!;
export const mailUrl = () => process.env.PW_E2E_MAIL_URL!;

/** An API call with the bearer token; the JSON answer, or a thrown error naming path and status. */
export async function api<T>(
  token: string,
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<T> {
  const response = await fetch(`${apiUrl()}/api${path}`, {
    method: init.method ?? 'GET',
    headers: {
      authorization: `Bearer ${token}`,
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${path}: ${response.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** The centre of an element of the live page, in page CSS pixels, from the page's own element areas. */
export async function centreOf(token: string, extractorType: ExtractorType, selector: string) {
  let found: NormalizedPage['areas'][number] | undefined;
  await expect
    .poll(async () => {
      const areas = await api<NormalizedPage>(
        token,
        `/extractor/normalized/current?extractorType=${extractorType}`,
      );
      found = areas.areas.find((area) => area.selector === selector && area.width > 0);
      return found !== undefined;
    })
    .toBe(true);
  return { x: found!.x + found!.width / 2, y: found!.y + found!.height / 2 };
}

/** Clicks the page view at a page point: the picture is scaled, so the point is scaled with it. */
export async function clickOnPage(page: Page, point: { x: number; y: number }) {
  const view = page.getByTestId('page-view');
  await expect(view).not.toHaveAttribute('data-frame-width', '0');
  const picture = page.getByTestId('page-picture');
  await picture.scrollIntoViewIfNeeded();
  const box = (await picture.boundingBox())!;
  const width = Number(await view.getAttribute('data-frame-width'));
  const height = Number(await view.getAttribute('data-frame-height'));
  await page.mouse.click(box.x + (point.x * box.width) / width, box.y + (point.y * box.height) / height);
}

export const card = (page: Page, sequence: number) => page.getByTestId(`action-card-${sequence}`);
export const dialog = (page: Page) => page.getByRole('dialog');

export async function chooseAction(page: Page, title: string) {
  await page.getByRole('menuitem', { name: title, exact: true }).click();
}

/** Chooses an element action, picks its element on the live page and waits for its dialog. */
export async function pickAndOpen(
  page: Page,
  token: string,
  type: ExtractorType,
  title: string,
  selector: string,
) {
  await chooseAction(page, title);
  await expect(page.getByTestId('picking-banner')).toBeVisible();
  await clickOnPage(page, await centreOf(token, type, selector));
  await expect(dialog(page)).toBeVisible();
}

/** Confirms the open dialog and waits for the card of `sequence`. */
export async function confirm(page: Page, sequence: number) {
  await dialog(page).getByRole('button', { name: 'Confirm' }).click();
  await expect(card(page, sequence)).toBeVisible({ timeout: 30_000 });
  await expect(dialog(page)).toHaveCount(0);
}

/**
 * In the Get table panel: clicks `clicked` on the page view (the innermost element under the
 * pointer is picked), then climbs with Up until `wanted` is the selection.
 */
export async function selectInTable(
  page: Page,
  token: string,
  panel: Locator,
  clicked: string,
  wanted: string = clicked,
) {
  const selection = panel.getByTestId('table-selection');
  const before = await selection.getAttribute('data-selector');
  await clickOnPage(page, await centreOf(token, 'EXTRACTOR', clicked));
  // The click's answer comes from the worker: climbing from the selection it replaces would climb
  // from the wrong element. (It may legitimately select what was selected: then the wait ends.)
  await expect
    .poll(() => selection.getAttribute('data-selector'), { timeout: 10_000 })
    .not.toBe(before)
    .catch(() => undefined);
  for (let climbs = 0; climbs < 6; climbs++) {
    await expect(selection).not.toHaveText(/Nothing selected/);
    if ((await selection.getAttribute('data-selector')) === wanted) return;
    await panel.getByRole('button', { name: 'Up' }).click();
  }
  await expect(selection).toHaveAttribute('data-selector', wanted);
}

/**
 * Validates the open builder to success (each card of `sequences` marked SUCCESS), saves it and
 * closes it (back on the dashboard).
 */
export async function validateSaveAndClose(page: Page, sequences: readonly number[] = []) {
  await page.getByRole('button', { name: 'Validate' }).click();
  await expect(page.getByText(MESSAGES['extractor.validate.success'])).toBeVisible({ timeout: 120_000 });
  for (const sequence of sequences)
    await expect(card(page, sequence)).toHaveAttribute('data-validation', 'SUCCESS');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(MESSAGES['extractor.save.success'])).toBeVisible();
  await page.getByTestId('builder').getByRole('button', { name: 'Close', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** A saved extractor's (or insertor's: panel 'insertors') row in the dashboard's list. */
export const extractorRow = (page: Page, name: string, panel: 'extractors' | 'insertors' = 'extractors') =>
  page.getByTestId(`panel-${panel}`).getByRole('listitem', { name, exact: true });

/** Executes a saved extractor from its menu on the dashboard. */
export async function executeFromDashboard(
  page: Page,
  name: string,
  panel: 'extractors' | 'insertors' = 'extractors',
) {
  await extractorRow(page, name, panel)
    .getByRole('button', { name: `More actions for ${name}` })
    .click();
  await page.getByRole('menuitem', { name: 'Execute' }).click();
}

/** Waits for the extractor's run to end with `status`, then opens what it read (its status marker). */
export async function openRunResults(
  page: Page,
  name: string,
  status = 'SUCCESS',
  panel: 'extractors' | 'insertors' = 'extractors',
) {
  const row = extractorRow(page, name, panel);
  await expect(row).toHaveAttribute('data-status', status, { timeout: 120_000 });
  await row.getByRole('button', { name: `Results of the last run of ${name}` }).click();
  return page.getByRole('dialog', { name: new RegExp(`Run results: ${name}`) });
}

/**
 * A new operator signed in through the login screen, with a new item of `extractorType` open in
 * its builder. Answers the API token (for areas and API calls) and the item's id.
 */
export async function signInAndOpenNewBuilder(
  page: Page,
  label: string,
  item: { name: string; description: string; extractorType: 'EXTRACTOR' | 'INSERTOR' },
) {
  const user = await createConfirmedUser(apiUrl(), mailUrl(), label);
  await openSignedIn(page, user);
  await expect(page).toHaveURL(/\/dashboard$/);
  const token = user.accessToken;
  const { id } = await api<{ id: string }>(token, '/extractor/start', { method: 'POST', body: item });
  await page.goto(`/${item.extractorType === 'INSERTOR' ? 'insertor' : 'extractor'}?id=${id}`);
  await expect(page.getByRole('heading', { name: item.name })).toBeVisible();
  return { token, id };
}
