import { z } from 'zod';

/**
 * The job catalogue: every BullMQ queue, its job names and payloads. The API enqueues, the worker
 * processes; both import these so a renamed job breaks the build, not production.
 */
export const QUEUES = {
  maintenance: 'pagewright-maintenance',
} as const;

export const MAINTENANCE_JOBS = {
  purgeExpiredSessions: 'purge-expired-sessions',
} as const;

export const purgeExpiredSessionsPayloadSchema = z.object({
  /** Keep revoked/expired rows this long for audit before deleting them. */
  retentionDays: z.number().int().min(0).default(7),
});
export type PurgeExpiredSessionsPayload = z.infer<typeof purgeExpiredSessionsPayloadSchema>;

/** How often the worker purges expired sessions, tokens and never-confirmed sign-ups. */
export const PURGE_EXPIRED_SESSIONS_EVERY_MS = 60 * 60 * 1000;

/** BullMQ's key prefix for a deployment: queues of deployments sharing one Redis stay apart. */
export function queuePrefix(redisKeyPrefix: string): string {
  return `${redisKeyPrefix}bull`;
}
