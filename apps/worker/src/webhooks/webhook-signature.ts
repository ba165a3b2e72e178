import { createHmac } from 'node:crypto';
import { WEBHOOK_SECRET_PREFIX } from '@pagewright/shared';

/** The headers of one delivery attempt (Standard Webhooks). */
export interface WebhookHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * Standard Webhooks' signature: `v1,` + base64(HMAC-SHA256(key, "<id>.<timestamp>.<body>")), the
 * key being the base64-decoded part of the secret after `whsec_`. `timestamp` is in unix seconds.
 */
export function signWebhook(secret: string, webhookId: string, timestamp: number, body: string): string {
  const key = Buffer.from(
    secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret,
    'base64',
  );
  const signature = createHmac('sha256', key).update(`${webhookId}.${timestamp}.${body}`).digest('base64');
  return `v1,${signature}`;
}

export function webhookHeaders(
  secret: string,
  webhookId: string,
  timestamp: number,
  body: string,
): WebhookHeaders {
  return {
    'webhook-id': webhookId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signWebhook(secret, webhookId, timestamp, body),
  };
}
