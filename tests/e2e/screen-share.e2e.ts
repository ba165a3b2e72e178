import { readFileSync } from 'node:fs';
import {
  SCREEN_SHARE_MESSAGES,
  SCREEN_SHARE_POLL_MS,
  type FileDownloadLink,
  type ScreenShareView,
} from '@pagewright/shared';
import { startFixtureSite, type FixtureSite } from '../fixtures/site/server.js';
import { createConfirmedUser, uniqueEmail } from '../support/accounts.js';
import { expectNothingWithin } from '../support/wait.js';
import { expect, test } from './fixtures.js';

const apiUrl = () => process.env.PW_E2E_BASE_URL!;
const mailUrl = () => process.env.PW_E2E_MAIL_URL!;
const NAVIGATOR = 'extractorType=NAVIGATOR';

let site: FixtureSite;

test.beforeAll(async () => {
  site = await startFixtureSite();
});

test.afterAll(async () => {
  await site.close();
});

/** The owner's side, through the API the builder screen uses. */
function ownerApi(accessToken: string) {
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${apiUrl()}/api${path}`, {
      method,
      headers: {
        authorization: `Bearer ${accessToken}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return response.json() as Promise<unknown>;
  };
  return {
    start: (name: string, viewerEmail: string) =>
      call('POST', '/extractor/start', {
        name,
        description: 'Screen Share',
        extractorType: 'NAVIGATOR',
        viewerEmail,
      }),
    add: (action: Record<string, unknown>) => call('POST', `/extractor/?${NAVIGATOR}`, action),
    end: () => call('GET', `/extractor/end?${NAVIGATOR}`),
  };
}

test('a viewer without an account watches a navigator live, opens its steps, downloads its file and sees it end', async ({
  browser,
  inbox,
}) => {
  test.setTimeout(120_000);
  const owner = await createConfirmedUser(apiUrl(), mailUrl(), 'share-owner');
  const viewerEmail = uniqueEmail('share-viewer');
  const owned = ownerApi(owner.accessToken);

  // The builder of a navigator mints the link and e-mails it to the viewer.
  await owned.start('Monthly statements', viewerEmail);
  await owned.add({ type: 'NAVIGATE', textValue: `${site.url}/pages/table.html` });
  const mail = await inbox.latest(viewerEmail, 'Monthly statements');
  const link = /https?:\/\/\S+\/screen-share-viewer\/([\w-]+)/.exec(mail.text);
  expect(link).not.toBeNull();
  const token = link![1]!;

  // A separate browser, never signed in.
  const viewer = await browser.newContext({ baseURL: apiUrl(), acceptDownloads: true });
  const page = await viewer.newPage();
  await page.goto(`/screen-share-viewer/${token}`);
  await expect(page).toHaveURL(new RegExp(`/screen-share/${token}$`));
  await expect(page.getByRole('heading', { name: 'Monthly statements' })).toBeVisible();
  await expect(page.getByText('Ada Lovelace')).toBeVisible();
  // The summary's page URL (a definition of the details list).
  await expect(
    page.getByRole('definition').filter({ hasText: `${site.url}/pages/table.html` }),
  ).toBeVisible();
  const view = page.getByTestId('screen-share-view');
  await expect(view).toHaveAttribute('data-columns', '12');
  const livePage = page.getByRole('region', { name: 'Live page' });
  await expect(livePage.getByRole('img', { name: 'Live page' })).toBeVisible();

  // The next step reaches the viewer through the 3 s poll.
  const actions = page.getByRole('list', { name: 'Actions' }).getByRole('listitem');
  await expect(actions).toHaveCount(1);
  await owned.add({ type: 'GET_FILE', target: { selectorValue: '#statement-rows tr:first-child a' } });
  await expect(actions).toHaveCount(2, { timeout: 10_000 });
  await expect(actions.nth(0)).toContainText('Navigate');
  await expect(actions.nth(1)).toContainText('Get file');
  // The live page is the session's own frames, read-only (issue 22), not the latest step's picture.
  await expect(livePage.getByRole('img', { name: 'Live page' })).toHaveAttribute('data-state', 'live');
  await expect(livePage.locator('img')).toHaveCount(0);

  // Screen: the step picture, enlargeable.
  await actions.nth(0).getByRole('button', { name: 'Screen' }).click();
  const screenDialog = page.getByRole('dialog', { name: 'Screen of action 10' });
  const picture = screenDialog.getByRole('img', { name: 'Screen of action 10' });
  await expect(picture).toBeVisible();
  expect(await picture.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
  await screenDialog.getByRole('button', { name: 'Enlarge' }).click();
  await expect(screenDialog.getByRole('button', { name: 'Fit to window' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(screenDialog).toBeHidden();

  // HTML: the recorded page's markup, shown as text only.
  await actions.nth(0).getByRole('button', { name: 'HTML' }).click();
  const htmlDialog = page.getByRole('dialog', { name: 'HTML of action 10' });
  await expect(htmlDialog).toContainText('statement-rows');
  await expect(page.locator('#statement-rows')).toHaveCount(0);
  await htmlDialog.getByRole('button', { name: 'Close' }).click();
  await expect(htmlDialog).toBeHidden();

  // File: a one-time link spent at once.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    actions.nth(1).getByRole('button', { name: 'File' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('statement-1.pdf');
  expect(
    readFileSync(await download.path())
      .subarray(0, 5)
      .toString(),
  ).toBe('%PDF-');
  await expect(page.getByTestId('toast').filter({ hasText: 'File saved: statement-1.pdf' })).toHaveAttribute(
    'data-severity',
    'info',
  );

  // The /file/:token page works once, then says the link is spent.
  const fileLink = (await (
    await fetch(`${apiUrl()}/api/extractor/token/${token}/step/20/file`)
  ).json()) as FileDownloadLink;
  expect(fileLink.url).toBe(`/file/${fileLink.token}`);
  const filePage = await viewer.newPage();
  await filePage.goto(fileLink.url);
  await expect(filePage.getByRole('heading', { name: 'File download' })).toBeVisible();
  await expect(filePage.getByText('This link works once.', { exact: false })).toBeVisible();
  const [fromPage] = await Promise.all([
    filePage.waitForEvent('download'),
    filePage.getByRole('button', { name: 'Download' }).click(),
  ]);
  expect(fromPage.suggestedFilename()).toBe('statement-1.pdf');
  await expect(filePage.getByText('File: statement-1.pdf')).toBeVisible();
  await expect(filePage.getByText('this link is now used up', { exact: false })).toBeVisible();
  await filePage.reload();
  await filePage.getByRole('button', { name: 'Download' }).click();
  await expect(filePage.getByText(SCREEN_SHARE_MESSAGES.downloadLinkInvalid)).toBeVisible();

  // The owner closes the builder: the view says the run has ended and stops polling.
  await owned.end();
  await expect(
    page.getByText('The run has finished. The recorded actions stay available below.'),
  ).toBeVisible({
    timeout: 10_000,
  });
  await expect(view).toHaveAttribute('data-columns', '9');
  await expect(livePage).toBeHidden();
  await expect(actions).toHaveCount(2);
  const viewRequests: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith(`/api/extractor/token/${token}`)) viewRequests.push(request.url());
  });
  // Nothing marks a poll that does not come: a view still polling asks again within its interval.
  await expectNothingWithin(
    SCREEN_SHARE_POLL_MS + 1_000,
    () => viewRequests.length > 0,
    'the ended view asked for itself again',
  );
  const final = (await (await fetch(`${apiUrl()}/api/extractor/token/${token}`)).json()) as ScreenShareView;
  expect(final.status).toBe('SUCCESS');

  await viewer.close();
});

test('an unknown screen-share link shows the API text', async ({ page }) => {
  await page.goto('/screen-share-viewer/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
  await expect(page.getByText(SCREEN_SHARE_MESSAGES.linkInvalid)).toBeVisible();
});
