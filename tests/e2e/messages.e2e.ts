import { readFileSync } from 'node:fs';
import { MESSAGES } from '@pagewright/shared';
import { createConfirmedUser } from '../support/accounts.js';
import { api, apiUrl, mailUrl } from './builder-page.js';
import { expect, openSignedIn, test } from './fixtures.js';

/**
 * Messaging end to end (issue 14): Ann writes to Bob with two files; Bob's dashboard shows it at
 * once (his list reloads only every minute: the WebSocket brings it); the e-mailed link opens the
 * thread in a browser with no session, a file downloads under its name, and Reply All from there
 * reaches Ann with the Cc kept, whose dashboard lists the reply.
 */

test('a message with two files reaches another account, its link opens without a session, Reply All answers', async ({
  page,
  browser,
  inbox,
}) => {
  test.setTimeout(180_000);
  const [ann, bob] = await Promise.all([
    createConfirmedUser(apiUrl(), mailUrl(), 'messages-ann'),
    createConfirmedUser(apiUrl(), mailUrl(), 'messages-bob'),
  ]);
  // Bob's lists reload once a minute: a message showing within seconds came over the WebSocket.
  await api(bob.accessToken, '/user/settings/listRefreshInterval', {
    method: 'PUT',
    body: { value: '60000' },
  });
  const subject = `Quarterly figures ${Date.now()}`;
  const copied = `carol-${Date.now()}@outside.example.com`;

  const bobContext = await browser.newContext();
  const bobPage = await bobContext.newPage();
  await openSignedIn(bobPage, bob);
  await expect(bobPage).toHaveURL(/\/dashboard$/);
  const bobPanel = bobPage.getByTestId('panel-messaging');
  await expect(bobPanel).toContainText('No messages yet');

  // Ann writes, with two files.
  await openSignedIn(page, ann);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByTestId('panel-messaging').getByRole('button', { name: 'New message' }).click();
  await expect(page).toHaveURL(/\/messaging-new$/);
  await expect(page.getByRole('heading', { name: 'Write a new message' })).toBeVisible();
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText(MESSAGES['message.to.required'])).toBeVisible();
  await page.getByRole('textbox', { name: 'To' }).fill(bob.username);
  await page.getByRole('textbox', { name: 'Cc', exact: true }).fill(copied);
  await page.getByRole('textbox', { name: 'Subject' }).fill(subject);
  await page.getByRole('textbox', { name: 'Message' }).fill('The numbers are attached.\nRegards, Ann');
  await page.getByTestId('attach-files').setInputFiles([
    { name: 'figures.csv', mimeType: 'text/csv', buffer: Buffer.from('quarter,revenue\nQ3,1200\n') },
    {
      name: 'chart.png',
      mimeType: 'image/png',
      buffer: Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'),
    },
  ]);
  await expect(page.getByRole('button', { name: 'Remove figures.csv' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Remove chart.png' })).toBeVisible();
  await page.getByRole('button', { name: 'Send' }).click();
  // Back one page inside the SPA (issue 23: no full reload), the success toast showing.
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('toast').filter({ hasText: MESSAGES['message.sent'] })).toBeVisible();
  const annPanel = page.getByTestId('panel-messaging');
  await annPanel.getByRole('tab', { name: 'Sent' }).click();
  await expect(annPanel.getByTestId('message-row').first()).toContainText(subject.slice(0, 27));

  // Bob's dashboard shows it at once, bold until opened.
  await expect(bobPanel.getByTestId('message-row').first()).toContainText(subject.slice(0, 27), {
    timeout: 10_000,
  });

  // The e-mailed link opens the thread in a browser without a session.
  const mail = await inbox.delivered(bob.username, subject);
  const link = /https?:\/\/\S+\/message\/token\/[\w-]+/u.exec(mail.text)?.[0] ?? '';
  expect(link).not.toBe('');
  const guest = await browser.newContext({ acceptDownloads: true });
  const guestPage = await guest.newPage();
  await guestPage.goto(link);
  const original = guestPage.getByTestId('message');
  await expect(original).toContainText('The numbers are attached.');
  await expect(original).toContainText(`${ann.username.toLowerCase()}`);
  await expect(guestPage.getByRole('button', { name: 'Return to dashboard' })).toHaveCount(0);
  const download = guestPage.waitForEvent('download');
  await original.getByRole('button', { name: 'figures.csv' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('figures.csv');
  expect(readFileSync(await file.path(), 'utf8')).toBe('quarter,revenue\nQ3,1200\n');

  // Reply All from Bob's link: to Ann, the Cc kept as Cc, Bob (who replies) left out; "Re: …".
  await guestPage.getByRole('button', { name: 'Reply All' }).click();
  await expect(guestPage).toHaveURL(/\/messaging-new$/);
  await expect(guestPage.getByRole('textbox', { name: 'To' })).toHaveValue(ann.username.toLowerCase());
  await expect(guestPage.getByRole('textbox', { name: 'Cc', exact: true })).toHaveValue(copied);
  await expect(guestPage.getByRole('textbox', { name: 'Subject' })).toHaveValue(`Re: ${subject}`);
  await guestPage.getByRole('textbox', { name: 'Message' }).fill('Thanks, received both files.');
  await guestPage.getByRole('button', { name: 'Send' }).click();
  // Back on the thread, read again without a reload: the reply first, the original last.
  await expect(guestPage).toHaveURL(/\/message\/token\//u);
  await expect(guestPage.getByTestId('toast').filter({ hasText: MESSAGES['message.sent'] })).toBeVisible();
  await expect(guestPage.getByTestId('message')).toHaveCount(2);
  await expect(guestPage.getByTestId('message').first()).toContainText('Thanks, received both files.');
  await expect(guestPage.getByTestId('message').last()).toContainText('The numbers are attached.');

  // Ann's received list has the reply.
  await annPanel.getByRole('tab', { name: 'Received' }).click();
  await expect(annPanel.getByTestId('message-row').first()).toContainText('Re: ', { timeout: 10_000 });
  await annPanel.getByTestId('message-row').first().getByRole('button').first().click();
  await expect(page).toHaveURL(/\/message\/id\//u);
  await expect(page.getByRole('button', { name: 'Return to dashboard' })).toBeVisible();
  await expect(page.getByTestId('message').first()).toContainText('Thanks, received both files.');

  await guest.close();
  await bobContext.close();
});
