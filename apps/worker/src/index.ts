/**
 * What other workspace code may run of the worker in its own process (`@pagewright/worker`): the
 * benches measure these paths without a worker process around them (bench/datasets, schedules,
 * api-runs) and the tests the purge of expired sessions (maintenance.test.ts). The worker itself starts from main.ts; nothing here starts anything.
 */
export { createRunStore } from './flows/run-store.js';
export { purgeExpiredSessions } from './processors/purge-expired-sessions.processor.js';
export { createFireSchedulerProcessor } from './processors/fire-scheduler.processor.js';
export { postWebhook } from './webhooks/webhook-post.js';
