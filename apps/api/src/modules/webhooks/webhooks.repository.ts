import type { Prisma, PrismaClient, WebhookEvent } from '@pagewright/db';
import type { WebhookOwnerParams } from '@pagewright/shared';

const endpointSelect = {
  id: true,
  userId: true,
  extractorId: true,
  schedulerId: true,
  url: true,
  events: true,
  enabled: true,
  createdAt: true,
} as const;

const deliverySelect = {
  id: true,
  endpointId: true,
  event: true,
  webhookId: true,
  status: true,
  attempts: true,
  lastStatusCode: true,
  lastError: true,
  createdAt: true,
  lastAttemptAt: true,
  deliveredAt: true,
  payload: true,
} as const;

export interface EndpointToCreate {
  id: string;
  userId: string;
  owner: WebhookOwnerParams;
  url: string;
  events: WebhookEvent[];
  enabled: boolean;
  sealed: { ciphertext: Buffer; iv: Buffer; authTag: Buffer };
}

/** A delivery's body as stored: any JSON value (a jsonb column). */
export type DeliveryPayload = Prisma.InputJsonValue;

/** Webhook endpoints and deliveries; every read is scoped to the owning user. */
export function createWebhookRepository(db: PrismaClient) {
  const ownerWhere = (owner: WebhookOwnerParams) =>
    owner.ownerKind === 'extractor' ? { extractorId: owner.ownerId } : { schedulerId: owner.ownerId };

  return {
    /** Whether the extractor or scheduler exists and is the user's. */
    async isOwner(userId: string, owner: WebhookOwnerParams): Promise<boolean> {
      const where = { id: owner.ownerId, userId };
      const found =
        owner.ownerKind === 'extractor'
          ? await db.extractor.findFirst({ where, select: { id: true } })
          : await db.scheduler.findFirst({ where, select: { id: true } });
      return found !== null;
    },

    listEndpoints(userId: string, owner: WebhookOwnerParams) {
      return db.webhookEndpoint.findMany({
        where: { userId, ...ownerWhere(owner) },
        orderBy: { createdAt: 'asc' },
        select: endpointSelect,
      });
    },

    countEndpoints(owner: WebhookOwnerParams) {
      return db.webhookEndpoint.count({ where: ownerWhere(owner) });
    },

    createEndpoint(endpoint: EndpointToCreate) {
      return db.webhookEndpoint.create({
        data: {
          id: endpoint.id,
          userId: endpoint.userId,
          ...ownerWhere(endpoint.owner),
          url: endpoint.url,
          events: endpoint.events,
          enabled: endpoint.enabled,
          secretCiphertext: new Uint8Array(endpoint.sealed.ciphertext),
          secretIv: new Uint8Array(endpoint.sealed.iv),
          secretAuthTag: new Uint8Array(endpoint.sealed.authTag),
        },
        select: endpointSelect,
      });
    },

    findEndpoint(userId: string, endpointId: string) {
      return db.webhookEndpoint.findFirst({ where: { id: endpointId, userId }, select: endpointSelect });
    },

    updateEndpoint(
      endpointId: string,
      data: { url?: string | undefined; events?: WebhookEvent[] | undefined; enabled?: boolean | undefined },
    ) {
      return db.webhookEndpoint.update({
        where: { id: endpointId },
        data: {
          ...(data.url !== undefined ? { url: data.url } : {}),
          ...(data.events !== undefined ? { events: data.events } : {}),
          ...(data.enabled !== undefined ? { enabled: data.enabled } : {}),
        },
        select: endpointSelect,
      });
    },

    async deleteEndpoint(userId: string, endpointId: string): Promise<boolean> {
      const deleted = await db.webhookEndpoint.deleteMany({ where: { id: endpointId, userId } });
      return deleted.count > 0;
    },

    /** A page of an endpoint's deliveries, newest first, and how many there are. */
    async listDeliveries(endpointId: string, page: number, pageSize: number) {
      const [deliveries, total] = await db.$transaction([
        db.webhookDelivery.findMany({
          where: { endpointId },
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
          skip: (page - 1) * pageSize,
          take: pageSize,
          select: deliverySelect,
        }),
        db.webhookDelivery.count({ where: { endpointId } }),
      ]);
      return { deliveries, total };
    },

    findDelivery(userId: string, deliveryId: string) {
      return db.webhookDelivery.findFirst({
        where: { id: deliveryId, endpoint: { userId } },
        select: deliverySelect,
      });
    },

    /** The extractor's change-alert setting; null when it is not the user's. */
    findChangeAlert(userId: string, extractorId: string) {
      return db.extractor.findFirst({
        where: { id: extractorId, userId },
        select: { changeAlertEmail: true },
      });
    },

    async setChangeAlert(userId: string, extractorId: string, email: boolean): Promise<boolean> {
      const updated = await db.extractor.updateMany({
        where: { id: extractorId, userId },
        data: { changeAlertEmail: email },
      });
      return updated.count > 0;
    },

    createDelivery(delivery: {
      endpointId: string;
      event: WebhookEvent;
      webhookId: string;
      payload: DeliveryPayload;
    }) {
      return db.webhookDelivery.create({ data: delivery, select: deliverySelect });
    },
  };
}
export type WebhookRepository = ReturnType<typeof createWebhookRepository>;
