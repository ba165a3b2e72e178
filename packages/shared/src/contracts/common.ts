import * as z from './zod.js';

/** The one error body of the API: `{ message, code, field? }`. */
export const errorResponseSchema = z.object({
  message: z.string(),
  code: z.string(),
  field: z.string().optional(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

export const messageResponseSchema = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponseSchema>;

export const idParamSchema = z.object({ id: z.string().uuid() });

const checkSchema = z.enum(['ok', 'down']);

/** Why /health is degraded, for the operator reading it. */
export const HEALTH_REASONS = {
  database: 'PostgreSQL does not answer',
  redis: 'Redis does not answer',
  noWorker: 'No worker is running: runs wait until one starts',
  jobSchedulers:
    'The job schedulers in Redis differ from the schedulers in PostgreSQL: schedules do not fire until a worker restores them',
} as const;

/**
 * GET /health. 503 when PostgreSQL or Redis does not answer (the API cannot serve); 200 with status
 * `degraded` when only the workers are missing (the API serves, runs wait for a worker).
 */
export const healthResponseSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  build: z.string(),
  checks: z.object({
    database: checkSchema,
    redis: checkSchema,
    workers: checkSchema,
    /** Down when the job schedulers in Redis and the schedulers in PostgreSQL differ (issue 24). */
    jobSchedulers: checkSchema,
  }),
  /** Worker processes taking runs now (BullMQ's list of the run queue's workers). */
  workers: z.number().int().min(0),
  /** What is wrong when the status is degraded; empty when ok. */
  reasons: z.array(z.string()),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;
