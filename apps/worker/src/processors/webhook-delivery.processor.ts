import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import {
  NavigationRefusedError,
  assertNavigationAllowed,
  policyLookup,
  systemResolveAll,
  type NavigationPolicy,
} from '@pagewright/automation';
import { webhookSecretContext, type PrismaClient, type SecretBox } from '@pagewright/db';
import { MESSAGES, deliverWebhookPayloadSchema, formatMessage } from '@pagewright/shared';
import type { WorkerConfig } from '../config.js';
import { postWebhook } from '../webhooks/webhook-post.js';
import { webhookHeaders } from '../webhooks/webhook-signature.js';

type WebhookDeliveryConfig = Pick<
  WorkerConfig,
  | 'NAVIGATION_ALLOW_PRIVATE_NETWORKS'
  | 'NAVIGATION_ALLOWED_HOSTS'
  | 'WEBHOOK_ALLOWED_HOSTS'
  | 'WEBHOOK_MAX_ATTEMPTS'
  | 'WEBHOOK_RETRY_FIRST_DELAY_MS'
  | 'WEBHOOK_RETRY_MAX_DELAY_MS'
>;

export interface WebhookDeliveryDeps {
  db: PrismaClient;
  /** Opens endpoints' secrets; without ENCRYPTION_KEY every delivery fails saying why. */
  secrets: SecretBox | undefined;
  config: WebhookDeliveryConfig;
  log: Logger;
}

/** The delivery's error column is this long. */
const ERROR_MAX = 1024;

/**
 * The delay before a delivery's next attempt (BullMQ's custom backoff `webhook`): the first delay,
 * doubled at each attempt, capped. With the defaults (1 min, 8 h cap, 12 attempts) the last
 * attempt comes about 25 hours after the first.
 */
export function webhookRetryDelay(
  config: Pick<WorkerConfig, 'WEBHOOK_RETRY_FIRST_DELAY_MS' | 'WEBHOOK_RETRY_MAX_DELAY_MS'>,
  attemptsMade: number,
): number {
  const delay = config.WEBHOOK_RETRY_FIRST_DELAY_MS * 2 ** Math.max(0, attemptsMade - 1);
  return Math.min(delay, config.WEBHOOK_RETRY_MAX_DELAY_MS);
}

/** Where webhooks may go: the navigation egress policy, with WEBHOOK_ALLOWED_HOSTS allowed too. */
export function webhookPolicy(config: WebhookDeliveryConfig): NavigationPolicy {
  return {
    allowPrivateNetworks: config.NAVIGATION_ALLOW_PRIVATE_NETWORKS,
    allowedHosts: [...config.NAVIGATION_ALLOWED_HOSTS, ...config.WEBHOOK_ALLOWED_HOSTS],
  };
}

interface AttemptOutcome {
  isDelivered: boolean;
  /** No later attempt can do better (refused by the policy, no key to sign with): FAILED now. */
  isFinal: boolean;
  statusCode: number | null;
  error: string | null;
}

/**
 * One attempt of a delivery (QUEUES.webhooks): the body is the stored payload, signed afresh with
 * the attempt's timestamp; the attempt is recorded on the row (status code, error, time). A failed
 * attempt throws so BullMQ tries again after webhookRetryDelay, until WEBHOOK_MAX_ATTEMPTS: the
 * last one leaves the delivery FAILED and the job ends.
 */
export function createWebhookDeliveryProcessor(deps: WebhookDeliveryDeps) {
  const { db, config, log } = deps;
  const policy = webhookPolicy(config);
  const isHostTrusted = (hostname: string) =>
    policy.allowPrivateNetworks || policy.allowedHosts.includes(hostname.replace(/^\[|\]$/g, ''));
  const lookup = policyLookup(policy, systemResolveAll);

  async function attempt(delivery: {
    webhookId: string;
    payload: unknown;
    endpoint: {
      id: string;
      userId: string;
      url: string;
      enabled: boolean;
      secretCiphertext: Uint8Array;
      secretIv: Uint8Array;
      secretAuthTag: Uint8Array;
    };
  }): Promise<AttemptOutcome> {
    const { endpoint } = delivery;
    if (!deps.secrets)
      return {
        isDelivered: false,
        isFinal: true,
        statusCode: null,
        error: MESSAGES['webhook.no.encryption.key'],
      };
    const secret = deps.secrets.open(
      {
        ciphertext: Buffer.from(endpoint.secretCiphertext),
        iv: Buffer.from(endpoint.secretIv),
        authTag: Buffer.from(endpoint.secretAuthTag),
      },
      webhookSecretContext(endpoint.userId, endpoint.id),
    );
    try {
      await assertNavigationAllowed(endpoint.url, policy);
      const body = JSON.stringify(delivery.payload);
      const headers = webhookHeaders(secret, delivery.webhookId, Math.floor(Date.now() / 1000), body);
      const hostname = new URL(endpoint.url).hostname;
      const response = await postWebhook(
        endpoint.url,
        body,
        { ...headers },
        isHostTrusted(hostname) ? undefined : lookup,
      );
      const isDelivered = response.statusCode >= 200 && response.statusCode < 300;
      return {
        isDelivered,
        isFinal: false,
        statusCode: response.statusCode,
        error: isDelivered
          ? null
          : `HTTP ${response.statusCode}${response.bodyStart ? `: ${response.bodyStart.trim()}` : ''}`,
      };
    } catch (error) {
      if (error instanceof NavigationRefusedError)
        return {
          isDelivered: false,
          isFinal: true,
          statusCode: null,
          error: formatMessage('webhook.refused', { reason: error.reason }),
        };
      return {
        isDelivered: false,
        isFinal: false,
        statusCode: null,
        error: error instanceof Error ? error.message || error.name : 'unknown error',
      };
    }
  }

  return async function processWebhookDelivery(job: Job): Promise<{ status: string }> {
    const { deliveryId } = deliverWebhookPayloadSchema.parse(job.data);
    const jobLog = log.child({ jobId: job.id, deliveryId });
    const delivery = await db.webhookDelivery.findUnique({
      where: { id: deliveryId },
      select: {
        webhookId: true,
        payload: true,
        status: true,
        attempts: true,
        endpoint: {
          select: {
            id: true,
            userId: true,
            url: true,
            enabled: true,
            secretCiphertext: true,
            secretIv: true,
            secretAuthTag: true,
          },
        },
      },
    });
    // Gone with its endpoint, or already settled (a job that ran twice): nothing to send.
    if (!delivery || delivery.status !== 'PENDING') return { status: delivery?.status ?? 'MISSING' };
    const outcome = await attempt(delivery);
    const attempts = delivery.attempts + 1;
    const isLast = outcome.isFinal || attempts >= config.WEBHOOK_MAX_ATTEMPTS;
    const now = new Date();
    const status = outcome.isDelivered ? 'DELIVERED' : isLast ? 'FAILED' : 'PENDING';
    await db.webhookDelivery.updateMany({
      where: { id: deliveryId, status: 'PENDING' },
      data: {
        status,
        attempts,
        lastStatusCode: outcome.statusCode,
        lastError: outcome.error?.slice(0, ERROR_MAX) ?? null,
        lastAttemptAt: now,
        ...(outcome.isDelivered ? { deliveredAt: now } : {}),
      },
    });
    jobLog.info({ attempts, status, statusCode: outcome.statusCode }, 'webhook attempt');
    // BullMQ waits webhookRetryDelay and runs the job again.
    if (status === 'PENDING') throw new Error(`Webhook attempt ${attempts} failed: ${outcome.error ?? ''}`);
    return { status };
  };
}
