import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import pino from 'pino';
import { createPrismaClient } from '@pagewright/db';
import { MAINTENANCE_JOBS, PURGE_EXPIRED_SESSIONS_EVERY_MS, QUEUES, queuePrefix } from '@pagewright/shared';
import { createBrowserPool } from './browser-pool.js';
import { loadConfig } from './config.js';
import { createLiveSessionRegistry } from './sessions/live-session-registry.js';
import { purgeExpiredSessions } from './processors/purge-expired-sessions.processor.js';

const config = loadConfig();
const log = pino({ level: config.LOG_LEVEL, base: { service: 'worker' } });

const browserPool = createBrowserPool({
  chromiumPath: config.CHROMIUM_PATH,
  navigationPolicy: {
    allowPrivateNetworks: config.NAVIGATION_ALLOW_PRIVATE_NETWORKS,
    allowedHosts: config.NAVIGATION_ALLOWED_HOSTS,
  },
  viewport: { width: 1280, height: 800 },
  onNavigationRefused: (error) => log.warn({ url: error.url, reason: error.reason }, 'navigation refused'),
});
browserPool.onBrowserLost((reason) => log.error({ reason }, 'chromium lost; relaunching on next use'));
// Browser work is this process's job: refuse to start with a Chromium that cannot launch, rather
// than fail the first run a user starts.
const probe = await browserPool.newContext();
log.info({ chromium: probe.browser()?.version(), path: config.CHROMIUM_PATH }, 'chromium available');
await probe.close();

const liveSessions = createLiveSessionRegistry({
  pool: browserPool,
  idleTimeoutMs: config.LIVE_SESSION_IDLE_MINUTES * 60_000,
  onSessionEnded: (session, reason) => log.info({ sessionId: session.id, reason }, 'live session ended'),
});
const idleSweep = setInterval(() => void liveSessions.closeIdle(), 60_000);
const db = createPrismaClient(config.DATABASE_URL);
// BullMQ workers block on Redis: they need their own connection without a retry cap.
const connection = new Redis(config.REDIS_URL, { maxRetriesPerRequest: null });

const prefix = queuePrefix(config.REDIS_KEY_PREFIX);
const maintenanceQueue = new Queue(QUEUES.maintenance, { connection, prefix });
await maintenanceQueue.upsertJobScheduler(
  MAINTENANCE_JOBS.purgeExpiredSessions,
  { every: PURGE_EXPIRED_SESSIONS_EVERY_MS },
  { name: MAINTENANCE_JOBS.purgeExpiredSessions, data: { retentionDays: config.SESSION_RETENTION_DAYS } },
);

const maintenanceWorker = new Worker(
  QUEUES.maintenance,
  async (job) => {
    const jobLog = log.child({ jobId: job.id, job: job.name });
    switch (job.name) {
      case MAINTENANCE_JOBS.purgeExpiredSessions: {
        const result = await purgeExpiredSessions(db, job.data, config.UNCONFIRMED_SIGNUP_RETENTION_DAYS);
        jobLog.info(result, 'purged expired sessions');
        return result;
      }
      default:
        throw new Error(`Unknown maintenance job: ${job.name}`);
    }
  },
  { connection, prefix, concurrency: 1 },
);
maintenanceWorker.on('failed', (job, error) => log.error({ jobId: job?.id, err: error }, 'job failed'));
log.info({ queues: [QUEUES.maintenance] }, 'worker ready');

async function shutdown(signal: string): Promise<void> {
  log.info({ signal }, 'shutting down');
  clearInterval(idleSweep);
  await browserPool.close();
  await maintenanceWorker.close();
  await maintenanceQueue.close();
  connection.disconnect();
  await db.$disconnect();
  process.exit(0);
}
process.once('SIGINT', () => void shutdown('SIGINT'));
process.once('SIGTERM', () => void shutdown('SIGTERM'));
