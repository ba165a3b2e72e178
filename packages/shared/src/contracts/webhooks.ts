import * as z from './zod.js';
import { MESSAGES } from '../messages.js';

/**
 * Webhooks (issue 26, docs/api.md "Webhooks"): endpoints of an extractor or of a scheduler, called
 * on its events with Standard Webhooks signatures, and the deliveries made to each.
 */

/** The events an endpoint can subscribe to. */
export const WEBHOOK_EVENTS = ['RUN_FINISHED', 'DATASET_ROWS_CHANGED', 'DATA_CHANGED'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** What a delivery carries: a subscribed event, or the "Send test event" button's TEST. */
export const WEBHOOK_DELIVERY_EVENTS = [...WEBHOOK_EVENTS, 'TEST'] as const;
export type WebhookDeliveryEvent = (typeof WEBHOOK_DELIVERY_EVENTS)[number];
export const WEBHOOK_DELIVERY_STATUSES = ['PENDING', 'DELIVERED', 'FAILED'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** The prefix of an endpoint's secret; base64 of 24 random bytes follows it. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** Deliveries listed per page. */
export const WEBHOOK_DELIVERIES_PAGE_SIZE = 20;

/** http(s) only, with a host; whether the host may be reached is the worker's to judge at delivery. */
export function isWebhookUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

const webhookUrl = z
  .string({ error: MESSAGES['webhook.url.invalid'] })
  .trim()
  .max(2048, MESSAGES['webhook.url.invalid'])
  .refine(isWebhookUrl, MESSAGES['webhook.url.invalid']);
const webhookEvents = z
  .array(z.enum(WEBHOOK_EVENTS, { error: MESSAGES['webhook.events.required'] }))
  .min(1, MESSAGES['webhook.events.required'])
  .transform((events) => [...new Set(events)]);

/** Whose events an endpoint gets: an extractor's runs, or the runs a scheduler starts. */
export const webhookOwnerParamsSchema = z.object({
  ownerKind: z.enum(['extractor', 'scheduler']),
  ownerId: z.string().uuid(),
});
export type WebhookOwnerParams = z.infer<typeof webhookOwnerParamsSchema>;
export const webhookEndpointParamsSchema = z.object({ endpointId: z.string().uuid() });
export const webhookDeliveryParamsSchema = z.object({ deliveryId: z.string().uuid() });

export const createWebhookEndpointSchema = z.object({
  url: webhookUrl,
  events: webhookEvents,
  enabled: z.boolean().default(true),
});
export type CreateWebhookEndpoint = z.input<typeof createWebhookEndpointSchema>;
export const updateWebhookEndpointSchema = z.object({
  url: webhookUrl.optional(),
  events: webhookEvents.optional(),
  enabled: z.boolean().optional(),
});
export type UpdateWebhookEndpoint = z.input<typeof updateWebhookEndpointSchema>;

export const webhookEndpointSchema = z.object({
  id: z.string().uuid(),
  extractorId: z.string().uuid().nullable(),
  schedulerId: z.string().uuid().nullable(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  enabled: z.boolean(),
  createdAt: z.string(),
});
export type WebhookEndpointView = z.infer<typeof webhookEndpointSchema>;
/** The answer to a creation: the only time the secret is shown. */
export const createdWebhookEndpointSchema = webhookEndpointSchema.extend({ secret: z.string() });
export type CreatedWebhookEndpoint = z.infer<typeof createdWebhookEndpointSchema>;
export const webhookEndpointListSchema = z.object({ endpoints: z.array(webhookEndpointSchema) });
export type WebhookEndpointList = z.infer<typeof webhookEndpointListSchema>;

export const webhookDeliverySchema = z.object({
  id: z.string().uuid(),
  endpointId: z.string().uuid(),
  event: z.enum(WEBHOOK_DELIVERY_EVENTS),
  /** The `webhook-id` header (a redelivery keeps it). */
  webhookId: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  lastStatusCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  lastAttemptAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  payload: z.unknown(),
});
export type WebhookDeliveryView = z.infer<typeof webhookDeliverySchema>;
export const webhookDeliveriesQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export const webhookDeliveryListSchema = z.object({
  deliveries: z.array(webhookDeliverySchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
});
export type WebhookDeliveryList = z.infer<typeof webhookDeliveryListSchema>;

/** Every event's body: `{ type, timestamp, data }` (Standard Webhooks' recommended shape). */
export const runFinishedDataSchema = z.object({
  runId: z.string().uuid(),
  extractorId: z.string().uuid(),
  extractorName: z.string(),
  status: z.enum(['SUCCESS', 'ERROR', 'STOPPED']),
  trigger: z.string(),
  schedulerId: z.string().uuid().nullable(),
  startedAt: z.string(),
  finishedAt: z.string(),
  errorMessage: z.string().nullable(),
  summary: z.object({
    steps: z.number().int(),
    /** Rows of each Get table, by its label (or "Get table (sequence)"). */
    rows: z.record(z.string(), z.number().int()),
  }),
  resultsUrl: z.string(),
});
export type RunFinishedData = z.infer<typeof runFinishedDataSchema>;
export const datasetRowsChangedDataSchema = z.object({
  runId: z.string().uuid(),
  extractorId: z.string().uuid(),
  datasetId: z.string().uuid(),
  name: z.string(),
  /** Rows new to the dataset, and rows written over an existing key. */
  inserted: z.number().int(),
  updated: z.number().int(),
});
export type DatasetRowsChangedData = z.infer<typeof datasetRowsChangedDataSchema>;
export interface WebhookBody<Data> {
  type: WebhookDeliveryEvent;
  timestamp: string;
  data: Data;
}

/**
 * Change alerts of an extractor (issue 26 item 6): e-mail its owner when a run's Get tables differ
 * from the previous successful run's. The webhook half is an endpoint subscribed to DATA_CHANGED.
 */
export const changeAlertParamsSchema = z.object({ extractorId: z.string().uuid() });
export const changeAlertSchema = z.object({ email: z.boolean() });
export type ChangeAlert = z.infer<typeof changeAlertSchema>;
