/**
 * What other workspace code may run of the worker in its own process (`@pagewright/worker`): the
 * benches measure these paths without a worker process around them (bench/datasets, schedules,
 * api-runs). The worker itself starts from main.ts; nothing here starts anything.
 */
export { createRunStore } from './flows/run-store.js';
export { createFireSchedulerProcessor } from './processors/fire-scheduler.processor.js';
export { postWebhook } from './webhooks/webhook-post.js';
