import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { webhookSecretContext, type SecretBox } from '@pagewright/db';
import {
  MESSAGES,
  WEBHOOK_DELIVERIES_PAGE_SIZE,
  WEBHOOK_JOBS,
  WEBHOOK_SECRET_PREFIX,
  addJob,
  formatMessage,
  type ChangeAlert,
  type CreateWebhookEndpoint,
  type CreatedWebhookEndpoint,
  type UpdateWebhookEndpoint,
  type WebhookBody,
  type WebhookDeliveryList,
  type WebhookDeliveryView,
  type WebhookEndpointView,
  type WebhookOwnerParams,
} from '@pagewright/shared';
import { AppError } from '../../lib/app-error.js';
import type { WebhooksQueue } from '../../plugins/queues.js';
import type { DeliveryPayload, WebhookRepository } from './webhooks.repository.js';

/** Endpoints one extractor or scheduler may have. */
export const WEBHOOK_ENDPOINTS_MAX_PER_OWNER = 10;

export interface WebhookServiceDeps {
  webhooks: WebhookRepository;
  secrets: SecretBox;
  queue: WebhooksQueue;
  log: FastifyBaseLogger;
}

type EndpointRow = NonNullable<Awaited<ReturnType<WebhookRepository['findEndpoint']>>>;
type DeliveryRow = NonNullable<Awaited<ReturnType<WebhookRepository['findDelivery']>>>;

function endpointView(row: EndpointRow): WebhookEndpointView {
  return {
    id: row.id,
    extractorId: row.extractorId,
    schedulerId: row.schedulerId,
    url: row.url,
    events: row.events.filter((event) => event !== 'TEST'),
    enabled: row.enabled,
    createdAt: row.createdAt.toISOString(),
  };
}

function deliveryView(row: DeliveryRow): WebhookDeliveryView {
  return {
    id: row.id,
    endpointId: row.endpointId,
    event: row.event,
    webhookId: row.webhookId,
    status: row.status,
    attempts: row.attempts,
    lastStatusCode: row.lastStatusCode,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
    payload: row.payload,
  };
}

/** `whsec_` + base64 of 24 random bytes (Standard Webhooks' secret form). */
export function newWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(24).toString('base64')}`;
}

/**
 * Webhooks of extractors and schedulers (issue 26). The API keeps endpoints and queues deliveries;
 * the worker signs and sends them, judging the URL by its egress policy at delivery (the API
 * cannot: its DNS is not the worker's, and an address may change after creation).
 */
export function createWebhookService(deps: WebhookServiceDeps) {
  const { webhooks, secrets, queue } = deps;

  async function ownedEndpoint(userId: string, endpointId: string): Promise<EndpointRow> {
    const endpoint = await webhooks.findEndpoint(userId, endpointId);
    if (!endpoint) throw AppError.notFound(MESSAGES['webhook.not.found']);
    return endpoint;
  }

  async function queueDelivery(delivery: {
    endpointId: string;
    event: DeliveryRow['event'];
    webhookId: string;
    payload: DeliveryPayload;
  }): Promise<WebhookDeliveryView> {
    const created = await webhooks.createDelivery(delivery);
    await addJob(queue, WEBHOOK_JOBS.deliver, { deliveryId: created.id });
    return deliveryView(created);
  }

  return {
    async list(userId: string, owner: WebhookOwnerParams): Promise<{ endpoints: WebhookEndpointView[] }> {
      if (!(await webhooks.isOwner(userId, owner)))
        throw AppError.notFound(MESSAGES['webhook.owner.not.found']);
      return { endpoints: (await webhooks.listEndpoints(userId, owner)).map(endpointView) };
    },

    /** The secret is in this answer only: it is stored sealed, and never shown again. */
    async create(
      userId: string,
      owner: WebhookOwnerParams,
      input: Required<Pick<CreateWebhookEndpoint, 'url' | 'events'>> & { enabled: boolean },
    ): Promise<CreatedWebhookEndpoint> {
      if (!(await webhooks.isOwner(userId, owner)))
        throw AppError.notFound(MESSAGES['webhook.owner.not.found']);
      if ((await webhooks.countEndpoints(owner)) >= WEBHOOK_ENDPOINTS_MAX_PER_OWNER)
        throw new AppError(
          'CONFLICT',
          formatMessage('webhook.too.many', { max: WEBHOOK_ENDPOINTS_MAX_PER_OWNER }),
        );
      const id = randomUUID();
      const secret = newWebhookSecret();
      const created = await webhooks.createEndpoint({
        id,
        userId,
        owner,
        url: input.url,
        events: input.events,
        enabled: input.enabled,
        sealed: secrets.seal(secret, webhookSecretContext(userId, id)),
      });
      return { ...endpointView(created), secret };
    },

    async update(
      userId: string,
      endpointId: string,
      input: UpdateWebhookEndpoint,
    ): Promise<WebhookEndpointView> {
      await ownedEndpoint(userId, endpointId);
      return endpointView(await webhooks.updateEndpoint(endpointId, input));
    },

    async remove(userId: string, endpointId: string): Promise<{ message: string }> {
      if (!(await webhooks.deleteEndpoint(userId, endpointId)))
        throw AppError.notFound(MESSAGES['webhook.not.found']);
      return { message: MESSAGES['webhook.deleted'] };
    },

    async deliveries(userId: string, endpointId: string, page: number): Promise<WebhookDeliveryList> {
      await ownedEndpoint(userId, endpointId);
      const { deliveries, total } = await webhooks.listDeliveries(
        endpointId,
        page,
        WEBHOOK_DELIVERIES_PAGE_SIZE,
      );
      return {
        deliveries: deliveries.map(deliveryView),
        page,
        pageSize: WEBHOOK_DELIVERIES_PAGE_SIZE,
        total,
      };
    },

    /**
     * A new attempt chain for a delivery: a new row with the same payload and `webhook-id` (the
     * receiver's idempotency key), so the log keeps the first chain as it ended.
     */
    async redeliver(userId: string, deliveryId: string): Promise<WebhookDeliveryView> {
      const delivery = await webhooks.findDelivery(userId, deliveryId);
      if (!delivery) throw AppError.notFound(MESSAGES['webhook.delivery.not.found']);
      return queueDelivery({
        endpointId: delivery.endpointId,
        event: delivery.event,
        webhookId: delivery.webhookId,
        payload: delivery.payload as DeliveryPayload,
      });
    },

    async changeAlert(userId: string, extractorId: string): Promise<ChangeAlert> {
      const extractor = await webhooks.findChangeAlert(userId, extractorId);
      if (!extractor) throw AppError.notFound(MESSAGES['webhook.owner.not.found']);
      return { email: extractor.changeAlertEmail };
    },

    async setChangeAlert(userId: string, extractorId: string, alert: ChangeAlert): Promise<ChangeAlert> {
      if (!(await webhooks.setChangeAlert(userId, extractorId, alert.email)))
        throw AppError.notFound(MESSAGES['webhook.owner.not.found']);
      return alert;
    },

    /** A TEST event to the endpoint, whatever events it subscribes to. */
    async sendTest(userId: string, endpointId: string): Promise<WebhookDeliveryView> {
      const endpoint = await ownedEndpoint(userId, endpointId);
      const body: WebhookBody<{
        endpointId: string;
        extractorId: string | null;
        schedulerId: string | null;
      }> = {
        type: 'TEST',
        timestamp: new Date().toISOString(),
        data: { endpointId, extractorId: endpoint.extractorId, schedulerId: endpoint.schedulerId },
      };
      deps.log.info({ endpointId }, 'webhook test event queued');
      return queueDelivery({
        endpointId,
        event: 'TEST',
        webhookId: `msg_${randomUUID()}`,
        payload: body as unknown as DeliveryPayload,
      });
    },
  };
}
export type WebhookService = ReturnType<typeof createWebhookService>;
