import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { startFixtureSite, type FixtureSite } from '../fixtures/site/server.js';
import { createConfirmedUser } from '../support/accounts.js';
import { withDatabase } from '../support/test-database.js';
import { expect, openSignedIn, test } from './fixtures.js';

/**
 * Webhooks (issue 26): added to an extractor through its menu's Webhooks dialog (the secret shown
 * once), the extractor run, and the delivery to a receiver on 127.0.0.1 seen in the endpoint's log.
 */

const api = () => request(process.env.PW_E2E_BASE_URL!);

let site: FixtureSite;
let receiver: http.Server;
let receiverUrl: string;
const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];

test.beforeAll(async () => {
  site = await startFixtureSite();
  receiver = http.createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      received.push({ headers: incoming.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
});

test.afterAll(async () => {
  receiver.close();
  await site.close();
});

test('adds a webhook from the extractor menu, runs it and sees the delivery in the log', async ({ page }) => {
  const account = await createConfirmedUser(
    process.env.PW_E2E_BASE_URL!,
    process.env.PW_E2E_MAIL_URL!,
    'webhooks',
  );
  const created = await api()
    .post('/api/extractor/start')
    .set({ Authorization: `Bearer ${account.accessToken}` })
    .send({ name: 'Hooked', description: 'Hooked flow', extractorType: 'EXTRACTOR' })
    .expect(201);
  const extractorId = (created.body as { id: string }).id;
  await withDatabase(process.env.PW_E2E_DATABASE_URL!, (db) =>
    db.query(
      `INSERT INTO "ExtractorAction" (id, "extractorId", sequence, type, "textValue", "updatedAt") VALUES (gen_random_uuid(), $1, 10, 'NAVIGATE', $2, now())`,
      [extractorId, `${site.url}/pages/table.html`],
    ),
  );

  await openSignedIn(page, account);
  await expect(page).toHaveURL(/\/dashboard$/);
  const row = page.getByTestId('panel-extractors').getByRole('listitem', { name: 'Hooked', exact: true });
  await row.getByRole('button', { name: 'More actions for Hooked' }).click();
  await page.getByRole('menuitem', { name: 'Webhooks' }).click();
  const dialog = page.getByRole('dialog', { name: 'Webhooks: Hooked' });
  await expect(dialog.getByText('No webhook yet')).toBeVisible();
  await dialog.getByLabel('Endpoint URL').fill(receiverUrl);
  await expect(dialog.getByLabel('Run finished')).toBeChecked();
  await dialog.getByRole('button', { name: 'Add webhook' }).click();
  await expect(dialog.getByText('Copy this signing secret now: it is not shown again.')).toBeVisible();
  await expect(dialog.getByLabel('Signing secret', { exact: true })).toHaveText(/^whsec_[A-Za-z0-9+/]{32}$/);
  await expect(dialog.getByText(receiverUrl)).toBeVisible();

  await api()
    .get(`/api/extractor/execute/${extractorId}`)
    .set({ Authorization: `Bearer ${account.accessToken}` })
    .expect(200);
  await expect.poll(() => received.length, { timeout: 60_000 }).toBe(1);
  expect(received[0]?.headers['webhook-signature']).toMatch(/^v1,/);

  await dialog.getByRole('button', { name: 'Deliveries' }).click();
  const log = dialog.getByRole('table', { name: 'Deliveries' });
  const delivered = log.getByRole('row').filter({ hasText: 'Run finished' });
  await expect(delivered).toContainText('Delivered');
  await expect(delivered).toContainText('204');
  await expect(delivered.getByRole('cell').nth(4)).toHaveText('1');
  await expect(delivered.getByRole('button', { name: 'Redeliver' })).toBeVisible();
});
