import type { Locator, Page } from '@playwright/test';
import { MESSAGES } from '@pagewright/shared';
import { createConfirmedUser } from '../support/accounts.js';
import { saveOneAction, withDatabase } from '../support/test-database.js';
import { api, apiUrl, mailUrl } from './builder-page.js';
import { expect, openSignedIn, test } from './fixtures.js';

/**
 * Schedulers end to end (issue 13): with the Scheduler panel switched on, one scheduler of each
 * frequency is made through the wizard (/scheduler-extractor, then /Scheduler) and shows on the
 * dashboard with its frequency in words and its next run; one is edited to another frequency, one
 * renamed, one deleted.
 */

/**
 * An extractor or insertor to schedule: created (and its builder closed) the way the dashboard does,
 * then given a saved action, since only saved, validated or run items are listed to choose from.
 */
async function createItem(token: string, name: string, extractorType: 'EXTRACTOR' | 'INSERTOR') {
  const { id } = await api<{ id: string }>(token, '/extractor/start', {
    method: 'POST',
    body: { name, description: `${name} flow`, extractorType },
  });
  await api(token, `/extractor/end?extractorType=${extractorType}`);
  await withDatabase(process.env.PW_E2E_DATABASE_URL!, (db) => saveOneAction(db, id));
}

const row = (list: Locator, name: string) => list.getByRole('listitem', { name, exact: true });
const toast = (page: Page, text: string) => page.getByTestId('toast').filter({ hasText: text });

async function choose(page: Page, combobox: string, option: string) {
  await page.getByRole('combobox', { name: combobox, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function chooseTimeZone(page: Page, zone: string) {
  const timeZone = page.getByRole('combobox', { name: 'Time zone' });
  // Emptied first: typing the zone it already shows (the browser's) would not open the list.
  await timeZone.fill('');
  await timeZone.fill(zone);
  await page.getByRole('option', { name: zone, exact: true }).click();
}

/** The wizard from the panel's Add: first page, `frequency` fills step 1, `extractors` are ticked. */
async function createScheduler(
  page: Page,
  panel: Locator,
  scheduler: { name: string; description: string; extractors: string[]; frequency: () => Promise<void> },
) {
  await panel.getByRole('button', { name: 'Add scheduler' }).click();
  await expect(page).toHaveURL(/\/scheduler-extractor$/);
  await page.getByLabel('Name').fill(scheduler.name);
  await page.getByLabel('Description').fill(scheduler.description);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/Scheduler$/);
  await expect(page.getByRole('heading', { name: scheduler.name })).toBeVisible();
  await scheduler.frequency();
  await page.getByRole('button', { name: 'Next' }).click();
  for (const name of scheduler.extractors) await page.getByRole('checkbox', { name: `Run ${name}` }).check();
  await page.getByRole('button', { name: 'Save' }).click();
  // Closed, so the next save's toast is the only one.
  await toast(page, MESSAGES['scheduler.saved']).getByRole('button', { name: 'Close' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(row(panel, scheduler.name)).toBeVisible();
}

test('schedulers of each frequency are made in the wizard, listed with their next run, edited, renamed and deleted', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const user = await createConfirmedUser(apiUrl(), mailUrl(), 'schedulers-e2e');
  await createItem(user.accessToken, 'Shop prices', 'EXTRACTOR');
  await createItem(user.accessToken, 'Order form', 'INSERTOR');
  await openSignedIn(page, user);
  await expect(page).toHaveURL(/\/dashboard$/);
  // A new account's Scheduler panel is off (spec default): the dashboard itself offers it.
  const panel = page.getByTestId('panel-scheduler');
  await expect(panel).toHaveCount(0);
  await page.getByTestId('hidden-panels').getByRole('button', { name: 'Show Scheduler' }).click();
  await expect(panel).toContainText('No items yet');
  await expect(page.getByTestId('hidden-panels')).toHaveCount(0);
  await page.reload();
  await expect(panel).toContainText('No items yet');

  // Interval; Next without the minutes shows the spec's text first.
  await createScheduler(page, panel, {
    name: 'Quarter hour',
    description: 'Prices every 15 minutes',
    extractors: ['Shop prices'],
    frequency: async () => {
      await page.getByRole('button', { name: 'Next' }).click();
      await expect(page.getByText(MESSAGES['scheduler.frequency.required'])).toBeVisible();
      await choose(page, 'Frequency', 'Interval');
      await page.getByRole('button', { name: 'Next' }).click();
      await expect(page.getByText(MESSAGES['scheduler.interval.required'])).toBeVisible();
      await page.getByRole('spinbutton', { name: 'Interval in minutes' }).fill('15');
    },
  });
  await createScheduler(page, panel, {
    name: 'Morning',
    description: 'Every morning in Berlin',
    extractors: ['Shop prices', 'Order form'],
    frequency: async () => {
      await choose(page, 'Frequency', 'Daily');
      await page.getByRole('spinbutton', { name: 'Hour' }).fill('9');
      await page.getByRole('spinbutton', { name: 'Minute' }).fill('30');
      await chooseTimeZone(page, 'Europe/Berlin');
    },
  });
  await createScheduler(page, panel, {
    name: 'Twice a week',
    description: 'Mondays and Fridays',
    extractors: ['Order form'],
    frequency: async () => {
      await choose(page, 'Frequency', 'Weekly');
      await page.getByRole('spinbutton', { name: 'Hour' }).fill('8');
      await page.getByRole('spinbutton', { name: 'Minute' }).fill('0');
      await page.getByRole('button', { name: 'Next' }).click();
      await expect(page.getByText(MESSAGES['scheduler.day.of.week.required'])).toBeVisible();
      await page.getByRole('checkbox', { name: 'Monday' }).check();
      await page.getByRole('checkbox', { name: 'Friday' }).check();
      await chooseTimeZone(page, 'UTC');
    },
  });
  await createScheduler(page, panel, {
    name: 'Month end',
    description: 'On the last day',
    extractors: ['Shop prices'],
    frequency: async () => {
      await choose(page, 'Frequency', 'Monthly');
      await page.getByRole('spinbutton', { name: 'Hour' }).fill('7');
      await page.getByRole('spinbutton', { name: 'Minute' }).fill('0');
      // Clamped to 31, the last day there is.
      await page.getByRole('spinbutton', { name: 'Day of the month' }).fill('45');
      await expect(page.getByRole('spinbutton', { name: 'Day of the month' })).toHaveValue('31');
      await chooseTimeZone(page, 'UTC');
    },
  });

  // Each shows its frequency in words, its next run and that it never ran.
  for (const [name, frequency] of [
    ['Quarter hour', 'Every 15 minutes'],
    ['Morning', 'Daily at 09:30 (Europe/Berlin)'],
    ['Twice a week', 'Weekly on Monday, Friday at 08:00 (UTC)'],
    ['Month end', 'Monthly on day 31 at 07:00 (UTC) — last day in shorter months'],
  ] as const) {
    const scheduler = row(panel, name);
    await expect(scheduler.getByTestId('scheduler-frequency')).toHaveText(frequency);
    await expect(scheduler.getByTestId('scheduler-next-run')).toHaveText(/^Next run: .*\d.* \(.+\)$/u);
    await expect(scheduler.getByTestId('scheduler-last-run')).toHaveText('Never run');
  }
  await expect(row(panel, 'Morning').getByTestId('scheduler-next-run')).toContainText('(Europe/Berlin)');

  // The first page catches a used name before anything is stored.
  await panel.getByRole('button', { name: 'Add scheduler' }).click();
  await page.getByLabel('Name').fill('Morning');
  await page.getByLabel('Description').fill('Again');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText(MESSAGES['scheduler.list.error.unique'])).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // Edit opens the wizard with the saved values; Morning becomes an interval.
  await row(panel, 'Morning').getByRole('button', { name: 'Edit Morning' }).click();
  await expect(page).toHaveURL(/\/Scheduler\?schedulerId=[0-9a-f-]{36}$/);
  await expect(page.getByRole('combobox', { name: 'Frequency' })).toHaveText('Daily');
  await expect(page.getByRole('spinbutton', { name: 'Hour' })).toHaveValue('09');
  await expect(page.getByRole('combobox', { name: 'Time zone' })).toHaveValue('Europe/Berlin');
  await choose(page, 'Frequency', 'Interval');
  await page.getByRole('spinbutton', { name: 'Interval in minutes' }).fill('30');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('checkbox', { name: 'Run Shop prices' })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'Run Order form' })).toBeChecked();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page, MESSAGES['scheduler.saved'])).toBeVisible();
  await expect(row(panel, 'Morning').getByTestId('scheduler-frequency')).toHaveText('Every 30 minutes');

  // Rename, with the spec's text.
  await row(panel, 'Twice a week').getByRole('button', { name: 'More actions for Twice a week' }).click();
  await page.getByRole('menuitem', { name: 'Rename' }).click();
  const renaming = page.getByRole('dialog', { name: 'Rename scheduler' });
  await renaming.getByLabel('Name').fill('Quarter hour');
  await renaming.getByRole('button', { name: 'Save' }).click();
  await expect(renaming.getByText(MESSAGES['scheduler.list.error.unique'])).toBeVisible();
  await renaming.getByLabel('Name').fill('Start and end of the week');
  await renaming.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page, MESSAGES['scheduler.renamed'])).toBeVisible();
  await expect(row(panel, 'Start and end of the week')).toBeVisible();
  await expect(row(panel, 'Twice a week')).toHaveCount(0);

  // Runs: nothing has fired yet.
  await row(panel, 'Month end').getByRole('button', { name: 'More actions for Month end' }).click();
  await page.getByRole('menuitem', { name: 'Runs' }).click();
  const runs = page.getByRole('dialog', { name: 'Runs of Month end' });
  await expect(runs).toContainText('It has not fired yet.');
  await runs.getByRole('button', { name: 'Close' }).click();

  // Delete, after confirming.
  await row(panel, 'Quarter hour').getByRole('button', { name: 'Delete Quarter hour' }).click();
  await page
    .getByRole('dialog', { name: 'Delete scheduler?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(toast(page, MESSAGES['scheduler.deleted'])).toBeVisible();
  await expect(row(panel, 'Quarter hour')).toHaveCount(0);
  await expect(panel.getByRole('listitem')).toHaveCount(3);

  // /scheduler (lower case) is the dashboard, where the list is.
  await page.goto('/scheduler');
  await expect(page).toHaveURL(/\/dashboard$/);
});
