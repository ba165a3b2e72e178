import { z } from 'zod';

/**
 * The job catalogue: every BullMQ queue, its job names and payloads. The API enqueues, the worker
 * processes; both import these so a renamed job breaks the build, not production.
 */
export const QUEUES = {
  maintenance: 'pagewright-maintenance',
  runs: 'pagewright-runs',
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

/** Jobs of QUEUES.runs: one recorded flow run in a fresh browser context (job id = run id). */
export const RUN_JOBS = {
  runFlow: 'run-flow',
} as const;

export const runFlowPayloadSchema = z.object({ runId: z.string().uuid() });
export type RunFlowPayload = z.infer<typeof runFlowPayloadSchema>;
