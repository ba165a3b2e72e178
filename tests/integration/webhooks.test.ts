import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import request from 'supertest';
import { createPrismaClient, createSecretBox, webhookSecretContext } from '@pagewright/db';
import {
  MESSAGES,
  type CreatedWebhookEndpoint,
  type RunFinishedData,
  type WebhookBody,
  type WebhookDeliveryList,
  type WebhookDeliveryView,
} from '@pagewright/shared';
import { startFixtureSite, type FixtureSite } from '../fixtures/site/server.js';
import { createSignedInUser, type SignedInUser } from '../support/accounts.js';
import { createInbox } from '../support/inbox.js';
import { waitForRun } from '../support/runs-api.js';
import { SHARED_STACK_WEBHOOK_MAX_ATTEMPTS as MAX_ATTEMPTS } from '../support/stack.js';

/**
 * Signed webhooks (issue 26 item 5), over HTTP against the suite's stack, whose worker may call
 * 127.0.0.1 and retries fast (3 attempts, 200 ms apart then 400 ms; global-setup.ts): a receiver on
 * this machine gets RUN_FINISHED deliveries it verifies with the secret as docs/api.md shows.
 */

const apiUrl = inject('apiUrl');
const mailUrl = inject('mailUrl');
const db = createPrismaClient(inject('databaseUrl'));
const api = () => request(apiUrl);
const bearer = (user: SignedInUser) => ({ Authorization: `Bearer ${user.token}` });

/** The verification of docs/api.md "Webhooks", as a receiver writes it. */
function verifyWebhook(secret: string, headers: http.IncomingHttpHeaders, body: string): boolean {
  const id = String(headers['webhook-id']);
  const timestamp = String(headers['webhook-timestamp']);
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  return String(headers['webhook-signature'])
    .split(' ')
    .some((entry) => {
      const [version, signature] = entry.split(',');
      const given = Buffer.from(signature ?? '', 'base64');
      return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
    });
}

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A receiver on 127.0.0.1: /ok answers 204, /fail answers 500; every request is kept. */
async function startReceiver() {
  const received: Received[] = [];
  const server = http.createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      received.push({
        path: incoming.url ?? '',
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      if (incoming.url?.startsWith('/fail')) response.writeHead(500).end('receiver broke');
      else response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { received, port, url: `http://127.0.0.1:${port}`, close: () => server.close() };
}

let site: FixtureSite;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let owner: SignedInUser;
let stranger: SignedInUser;

async function insertExtractor(user: SignedInUser, name: string): Promise<string> {
  const extractor = await db.extractor.create({
    data: {
      userId: user.id,
      name,
      description: name,
      extractorType: 'EXTRACTOR',
      actions: {
        create: [
          { sequence: 10, type: 'NAVIGATE', textValue: `${site.url}/pages/table.html` },
          { sequence: 20, type: 'GET_TEXT', label: 'Title', selectorValue: 'h1' },
        ],
      },
    },
  });
  return extractor.id;
}

/** An extractor that reads the fixture's transactions table (7 columns, keyed by its first). */
async function insertTableExtractor(user: SignedInUser, name: string): Promise<string> {
  const columns = ['Transaction', 'Portfolio', 'Trade date', 'Type', 'Amount', 'Currency', 'Description'];
  const extractor = await db.extractor.create({
    data: {
      userId: user.id,
      name,
      description: name,
      extractorType: 'EXTRACTOR',
      actions: {
        create: [
          { sequence: 10, type: 'NAVIGATE', textValue: `${site.url}/pages/transactions.html` },
          {
            sequence: 20,
            type: 'GET_TABLE',
            label: 'Transactions',
            getTable: {
              create: {
                name: 'Transactions',
                tableSelector: '#transactions',
                rowSelector: '#transaction-rows tr',
                columns: {
                  create: columns.map((label, index) => ({
                    sequence: index + 1,
                    label,
                    selector: `td:nth-child(${index + 1})`,
                    type: 'TEXT' as const,
                  })),
                },
              },
            },
          },
        ],
      },
    },
  });
  return extractor.id;
}

/** Points the extractor's page at a variant of the fixture table. */
async function useVariant(extractorId: string, variant: string): Promise<void> {
  await db.extractorAction.updateMany({
    where: { extractorId, type: 'NAVIGATE' },
    data: { textValue: `${site.url}/pages/transactions.html?variant=${variant}` },
  });
}

async function addEndpoint(
  user: SignedInUser,
  extractorId: string,
  url: string,
  events: string[] = ['RUN_FINISHED'],
): Promise<CreatedWebhookEndpoint> {
  const answer = await api()
    .post(`/api/webhooks/extractor/${extractorId}`)
    .set(bearer(user))
    .send({ url, events })
    .expect(201);
  return answer.body as CreatedWebhookEndpoint;
}

async function runToEnd(user: SignedInUser, extractorId: string): Promise<string> {
  const answer = await api().get(`/api/extractor/execute/${extractorId}`).set(bearer(user)).expect(200);
  const runId = (answer.body as { runId: string }).runId;
  await waitForRun(apiUrl, user.token, runId);
  return runId;
}

async function deliveriesOf(user: SignedInUser, endpointId: string): Promise<WebhookDeliveryView[]> {
  const answer = await api()
    .get(`/api/webhooks/endpoints/${endpointId}/deliveries`)
    .set(bearer(user))
    .expect(200);
  return (answer.body as WebhookDeliveryList).deliveries;
}

/** Polls the endpoint's deliveries until `until` holds for them. */
async function waitForDeliveries(
  user: SignedInUser,
  endpointId: string,
  until: (deliveries: WebhookDeliveryView[]) => boolean,
): Promise<WebhookDeliveryView[]> {
  let deliveries: WebhookDeliveryView[] = [];
  await expect
    .poll(
      async () => {
        deliveries = await deliveriesOf(user, endpointId);
        return until(deliveries);
      },
      { timeout: 30_000, interval: 200 },
    )
    .toBe(true);
  return deliveries;
}

beforeAll(async () => {
  site = await startFixtureSite();
  receiver = await startReceiver();
  [owner, stranger] = await Promise.all([
    createSignedInUser(db, apiUrl, mailUrl, 'webhooks-owner'),
    createSignedInUser(db, apiUrl, mailUrl, 'webhooks-stranger'),
  ]);
}, 60_000);

afterAll(async () => {
  receiver.close();
  await site.close();
  await db.$disconnect();
});

describe('webhooks', () => {
  it('sends a signed RUN_FINISHED delivery that verifies with the secret shown once', async () => {
    const extractorId = await insertExtractor(owner, 'Webhook signed');
    const endpoint = await addEndpoint(owner, extractorId, `${receiver.url}/ok/signed`);
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const listed = await api().get(`/api/webhooks/extractor/${extractorId}`).set(bearer(owner)).expect(200);
    expect(JSON.stringify(listed.body)).not.toContain(endpoint.secret);

    const runId = await runToEnd(owner, extractorId);
    const [delivery] = await waitForDeliveries(owner, endpoint.id, (all) => all[0]?.status === 'DELIVERED');
    expect(delivery).toMatchObject({
      event: 'RUN_FINISHED',
      attempts: 1,
      lastStatusCode: 204,
      lastError: null,
    });
    const got = receiver.received.filter((entry) => entry.path === '/ok/signed');
    expect(got).toHaveLength(1);
    const [call] = got;
    expect(call?.headers['content-type']).toBe('application/json');
    expect(call?.headers['webhook-id']).toBe(delivery?.webhookId);
    expect(call?.headers['webhook-timestamp']).toMatch(/^\d{10}$/);
    expect(call?.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(verifyWebhook(endpoint.secret, call?.headers ?? {}, call?.body ?? '')).toBe(true);
    // Another secret, or a body changed on the way, does not verify.
    expect(
      verifyWebhook(`whsec_${Buffer.alloc(24).toString('base64')}`, call?.headers ?? {}, call?.body ?? ''),
    ).toBe(false);
    expect(verifyWebhook(endpoint.secret, call?.headers ?? {}, `${call?.body ?? ''} `)).toBe(false);

    const body = JSON.parse(call?.body ?? '{}') as WebhookBody<RunFinishedData>;
    expect(body.type).toBe('RUN_FINISHED');
    expect(body.data).toMatchObject({
      runId,
      extractorId,
      extractorName: 'Webhook signed',
      status: 'SUCCESS',
      trigger: 'MANUAL',
      errorMessage: null,
      summary: { steps: 2, rows: {} },
    });
    expect(body.data.resultsUrl).toMatch(new RegExp(`/api/extractor/run/${runId}$`));
  });

  it('retries a receiver that answers 500, then shows the delivery FAILED; redeliver starts a new chain', async () => {
    const extractorId = await insertExtractor(owner, 'Webhook failing');
    const endpoint = await addEndpoint(owner, extractorId, `${receiver.url}/fail/retries`);
    await runToEnd(owner, extractorId);
    const [failed] = await waitForDeliveries(owner, endpoint.id, (all) => all[0]?.status === 'FAILED');
    expect(failed).toMatchObject({ attempts: MAX_ATTEMPTS, lastStatusCode: 500, deliveredAt: null });
    expect(failed?.lastError).toContain('HTTP 500: receiver broke');
    const tries = receiver.received.filter((entry) => entry.path === '/fail/retries');
    expect(tries).toHaveLength(MAX_ATTEMPTS);
    expect(new Set(tries.map((entry) => entry.headers['webhook-id']))).toEqual(new Set([failed?.webhookId]));

    // The receiver is fixed: a redelivery is a new delivery with the same webhook-id, delivered.
    await api()
      .put(`/api/webhooks/endpoints/${endpoint.id}`)
      .set(bearer(owner))
      .send({ url: `${receiver.url}/ok/redelivered` })
      .expect(200);
    const redelivered = await api()
      .post(`/api/webhooks/deliveries/${failed?.id ?? ''}/redeliver`)
      .set(bearer(owner))
      .expect(202);
    expect(redelivered.body).toMatchObject({ webhookId: failed?.webhookId, status: 'PENDING', attempts: 0 });
    const after = await waitForDeliveries(owner, endpoint.id, (all) => all[0]?.status === 'DELIVERED');
    expect(after).toHaveLength(2);
    expect(after[1]).toMatchObject({ id: failed?.id, status: 'FAILED' });
    const [call] = receiver.received.filter((entry) => entry.path === '/ok/redelivered');
    expect(call?.headers['webhook-id']).toBe(failed?.webhookId);
    expect(verifyWebhook(endpoint.secret, call?.headers ?? {}, call?.body ?? '')).toBe(true);
  });

  it('refuses a private address the worker is not allowed to reach, saying so on the delivery', async () => {
    const extractorId = await insertExtractor(owner, 'Webhook private');
    // 127.0.0.2 is loopback too, but only 127.0.0.1 is allowed (WEBHOOK_ALLOWED_HOSTS).
    const endpoint = await addEndpoint(owner, extractorId, `http://127.0.0.2:${receiver.port}/ok/private`);
    await api().post(`/api/webhooks/endpoints/${endpoint.id}/test`).set(bearer(owner)).expect(202);
    const [refused] = await waitForDeliveries(owner, endpoint.id, (all) => all[0]?.status === 'FAILED');
    expect(refused).toMatchObject({ event: 'TEST', attempts: 1, lastStatusCode: null });
    expect(refused?.lastError).toBe(
      'Refused by the egress policy: 127.0.0.2 resolves to the non-public address 127.0.0.2',
    );
    expect(receiver.received.filter((entry) => entry.path === '/ok/private')).toHaveLength(0);
  });

  it('refuses a URL that is not http(s) at creation', async () => {
    const extractorId = await insertExtractor(owner, 'Webhook bad url');
    for (const url of ['ftp://example.com/hook', 'javascript:alert(1)', 'not a url']) {
      const answer = await api()
        .post(`/api/webhooks/extractor/${extractorId}`)
        .set(bearer(owner))
        .send({ url, events: ['RUN_FINISHED'] })
        .expect(400);
      expect(answer.body).toMatchObject({ message: MESSAGES['webhook.url.invalid'], field: 'url' });
    }
    await api()
      .post(`/api/webhooks/extractor/${extractorId}`)
      .set(bearer(owner))
      .send({ url: `${receiver.url}/ok`, events: [] })
      .expect(400);
  });

  it("answers 404 for another user's extractor, endpoint and delivery", async () => {
    const extractorId = await insertExtractor(owner, 'Webhook private to owner');
    const endpoint = await addEndpoint(owner, extractorId, `${receiver.url}/ok/owned`);
    const test = await api()
      .post(`/api/webhooks/endpoints/${endpoint.id}/test`)
      .set(bearer(owner))
      .expect(202);
    const deliveryId = (test.body as WebhookDeliveryView).id;

    await api().get(`/api/webhooks/extractor/${extractorId}`).set(bearer(stranger)).expect(404);
    await api()
      .post(`/api/webhooks/extractor/${extractorId}`)
      .set(bearer(stranger))
      .send({ url: `${receiver.url}/ok/stolen`, events: ['RUN_FINISHED'] })
      .expect(404);
    await api()
      .put(`/api/webhooks/endpoints/${endpoint.id}`)
      .set(bearer(stranger))
      .send({ enabled: false })
      .expect(404);
    await api().get(`/api/webhooks/endpoints/${endpoint.id}/deliveries`).set(bearer(stranger)).expect(404);
    await api().post(`/api/webhooks/endpoints/${endpoint.id}/test`).set(bearer(stranger)).expect(404);
    await api().post(`/api/webhooks/deliveries/${deliveryId}/redeliver`).set(bearer(stranger)).expect(404);
    await api().delete(`/api/webhooks/endpoints/${endpoint.id}`).set(bearer(stranger)).expect(404);
    expect(await db.webhookEndpoint.count({ where: { id: endpoint.id, enabled: true } })).toBe(1);
  });

  it('keeps the secret sealed in the database, bound to its endpoint', async () => {
    const extractorId = await insertExtractor(owner, 'Webhook sealed');
    const endpoint = await addEndpoint(owner, extractorId, `${receiver.url}/ok/sealed`);
    const [row] = await db.$queryRaw<{ text: string }[]>`
      SELECT row_to_json(e)::text AS text FROM "WebhookEndpoint" e WHERE id = ${endpoint.id}::uuid`;
    const secretBytes = Buffer.from(endpoint.secret.slice('whsec_'.length), 'base64');
    expect(row?.text).not.toContain(endpoint.secret);
    expect(row?.text).not.toContain(endpoint.secret.slice('whsec_'.length));
    expect(row?.text).not.toContain(secretBytes.toString('hex'));
    const stored = await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    const secrets = createSecretBox(process.env.PW_TEST_ENCRYPTION_KEY ?? '');
    const sealed = {
      ciphertext: Buffer.from(stored.secretCiphertext),
      iv: Buffer.from(stored.secretIv),
      authTag: Buffer.from(stored.secretAuthTag),
    };
    expect(secrets.open(sealed, webhookSecretContext(owner.id, endpoint.id))).toBe(endpoint.secret);
    expect(() => secrets.open(sealed, webhookSecretContext(owner.id, extractorId))).toThrow();
  });

  it('a change alert e-mail lists the rows added and changed since the previous successful run', async () => {
    const extractorId = await insertTableExtractor(owner, 'Change alerted');
    const endpoint = await addEndpoint(owner, extractorId, `${receiver.url}/ok/changes`, ['DATA_CHANGED']);
    expect(
      await api().get(`/api/webhooks/change-alert/${extractorId}`).set(bearer(owner)).expect(200),
    ).toHaveProperty('body', { email: false });
    await api()
      .put(`/api/webhooks/change-alert/${extractorId}`)
      .set(bearer(owner))
      .send({ email: true })
      .expect(200, { email: true });
    await api()
      .put(`/api/webhooks/change-alert/${extractorId}`)
      .set(bearer(stranger))
      .send({ email: true })
      .expect(404);

    // The first run is the baseline: nothing to compare with, no alert.
    await runToEnd(owner, extractorId);
    await useVariant(extractorId, 'changed,incomplete');
    const runId = await runToEnd(owner, extractorId);
    const mail = await createInbox(mailUrl).latest(
      owner.email,
      'the data of "Change alerted" changed',
      30_000,
    );
    expect(mail.text).toContain(
      'Transactions (Transaction | Portfolio | Trade date | Type | Amount | Currency | Description): 1 added, 0 removed, 1 changed',
    );
    expect(mail.text).toContain('+ T-1006 | PF-003 | 2025-03-19 |  | 10.00 | GBP | No type');
    expect(mail.text).toContain(
      '~ T-1003 | PF-002 | 2025-03-16 | SUBSCRIPTION | 980.00 | USD | Top-up  →  T-1003 | PF-002 | 2025-03-16 | SUBSCRIPTION | 999.99 | USD | Top-up',
    );
    expect(mail.html).toContain('<li>T-1006 | PF-003 | 2025-03-19 |  | 10.00 | GBP | No type</li>');

    const [delivery] = await waitForDeliveries(owner, endpoint.id, (all) => all[0]?.status === 'DELIVERED');
    expect(delivery?.event).toBe('DATA_CHANGED');
    expect(delivery?.payload).toMatchObject({
      type: 'DATA_CHANGED',
      data: { runId, extractorId, tables: [{ table: 'Transactions', added: 1, removed: 0, changed: 1 }] },
    });
    // Only the second run sent one: the first had nothing to compare with.
    expect(await deliveriesOf(owner, endpoint.id)).toHaveLength(1);
  });

  it("keeps a scheduler's endpoints on the scheduler, for its owner only", async () => {
    const scheduler = await db.scheduler.create({
      data: {
        userId: owner.id,
        name: 'Hourly hooks',
        description: 'hooks',
        scheduleType: 'MINUTE_INTERVAL',
        minuteInterval: 60,
      },
    });
    const created = await api()
      .post(`/api/webhooks/scheduler/${scheduler.id}`)
      .set(bearer(owner))
      .send({ url: `${receiver.url}/ok/scheduler`, events: ['RUN_FINISHED', 'RUN_FINISHED'] })
      .expect(201);
    expect(created.body).toMatchObject({
      schedulerId: scheduler.id,
      extractorId: null,
      events: ['RUN_FINISHED'],
    });
    const listed = await api().get(`/api/webhooks/scheduler/${scheduler.id}`).set(bearer(owner)).expect(200);
    expect((listed.body as { endpoints: unknown[] }).endpoints).toHaveLength(1);
    await api().get(`/api/webhooks/scheduler/${scheduler.id}`).set(bearer(stranger)).expect(404);
    // A scheduler's id is not an extractor's.
    await api().get(`/api/webhooks/extractor/${scheduler.id}`).set(bearer(owner)).expect(404);
  });
});
