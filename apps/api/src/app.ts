import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import websocket from '@fastify/websocket';
import { Redis } from 'ioredis';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { createFileStorage, createRunStarter, createSecretBox, pgSql } from '@pagewright/db';
import {
  MESSAGES,
  QUEUES,
  RUN_JOBS,
  addJob,
  databaseTimeoutsOf,
  queuePrefix,
  enqueueFairly,
  RUN_WAIT_TTL_MS,
} from '@pagewright/shared';
import { QueueEvents } from 'bullmq';
import type { ApiConfig } from './config.js';
import { createAccessTokens } from './lib/access-token.js';
import { AppError } from './lib/app-error.js';
import { REDACTED_LOG_PATHS, serializeRequest } from './lib/log-redaction.js';
import { createSessionCallers } from './lib/session-callers.js';
import { createSessionChanges } from './lib/session-changes.js';
import { createSessionLookup } from './lib/session-lookup.js';
import { authPlugin } from './plugins/auth.js';
import { databasePlugin } from './plugins/database.js';
import { queuesPlugin } from './plugins/queues.js';
import { RequestLog } from './plugins/request-log.js';
import { securityHeadersPlugin } from './plugins/security-headers.js';
import { answerFrameworkError, errorsPlugin } from './plugins/errors.js';
import { spaPlugin } from './plugins/spa.js';
import { swaggerPlugin } from './plugins/swagger.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { createAuthService } from './modules/auth/auth.service.js';
import { createSessionRepository } from './modules/auth/session.repository.js';
import { createEngineAccountLinkRepository } from './modules/auth/engine-account-link.repository.js';
import { createEngineSignInService } from './modules/auth/engine-sign-in.service.js';
import { createEngineTokenVerifier } from './modules/auth/engine-token.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { browserHostRoutes } from './modules/browser-hosts/browser-hosts.routes.js';
import { createBrowserHostsRepository } from './modules/browser-hosts/browser-hosts.repository.js';
import { createBrowserHostsService } from './modules/browser-hosts/browser-hosts.service.js';
import { createLiveEventsHub } from './modules/live/live-events.hub.js';
import { liveRoutes } from './modules/live/live.routes.js';
import { createExtractorRepository } from './modules/extractor/extractor.repository.js';
import { extractorRoutes } from './modules/extractor/extractor.routes.js';
import { createExtractorService } from './modules/extractor/extractor.service.js';
import { createMailer } from '@pagewright/mail';
import { createBuilderRepository } from './modules/builder/builder.repository.js';
import { builderRoutes } from './modules/builder/builder.routes.js';
import { createBuilderService } from './modules/builder/builder.service.js';
import { createBuilderStore } from './modules/builder/builder.store.js';
import { createSessionCommandClient } from './modules/builder/session-commands.js';
import { createSharedLivePages } from './modules/builder/shared-live-page.js';
import { createAskRepository } from './modules/asks/asks.repository.js';
import { askRoutes } from './modules/asks/asks.routes.js';
import { createAskService } from './modules/asks/asks.service.js';
import { createRunRepository } from './modules/runs/runs.repository.js';
import { runRoutes } from './modules/runs/runs.routes.js';
import { createRunService } from './modules/runs/runs.service.js';
import { createStoppedRunSweep } from './modules/runs/stopped-runs.js';
import { createLoginFailureCeiling } from './modules/auth/login-failures.js';
import { createScreenShareRepository } from './modules/screen-share/screen-share.repository.js';
import { screenShareRoutes } from './modules/screen-share/screen-share.routes.js';
import { createScreenShareService } from './modules/screen-share/screen-share.service.js';
import { createSettingsRepository } from './modules/settings/settings.repository.js';
import { settingsRoutes } from './modules/settings/settings.routes.js';
import { createSettingsService } from './modules/settings/settings.service.js';
import { createUserRepository } from './modules/user/user.repository.js';
import { userRoutes } from './modules/user/user.routes.js';
import { createUserService } from './modules/user/user.service.js';
import { createDatasetDraftStore } from './modules/datasets/dataset-draft.store.js';
import { createDatasetRepository } from './modules/datasets/datasets.repository.js';
import { datasetRoutes } from './modules/datasets/datasets.routes.js';
import { createSchedulerRepository } from './modules/schedulers/schedulers.repository.js';
import { schedulerRoutes } from './modules/schedulers/schedulers.routes.js';
import { createSchedulerService } from './modules/schedulers/schedulers.service.js';
import { createDatasetService } from './modules/datasets/datasets.service.js';
import { createQueryDraftStore } from './modules/queries/query-draft.store.js';
import { createQueryRepository } from './modules/queries/queries.repository.js';
import { queryRoutes } from './modules/queries/queries.routes.js';
import { createQueryService } from './modules/queries/queries.service.js';
import { createMessageRepository } from './modules/messages/messages.repository.js';
import { messageRoutes } from './modules/messages/messages.routes.js';
import { createMessageService } from './modules/messages/messages.service.js';
import { createRecognitionRepository } from './modules/statement-recognition/statement-recognition.repository.js';
import { recognitionRoutes } from './modules/statement-recognition/statement-recognition.routes.js';
import { createRecognitionService } from './modules/statement-recognition/statement-recognition.service.js';
import { createTemplateRepository } from './modules/statement-templates/statement-templates.repository.js';
import { templateRoutes } from './modules/statement-templates/statement-templates.routes.js';
import { createTemplateService } from './modules/statement-templates/statement-templates.service.js';
import { createQueryResultService } from './modules/queries/query-results.service.js';
import { createExportSlots } from './modules/queries/export-slots.js';
import { apiKeyAuthPlugin, createApiKeyRateLimiter } from './plugins/api-key-auth.js';
import { createApiKeyRepository } from './modules/api-keys/api-keys.repository.js';
import { apiKeyRoutes } from './modules/api-keys/api-keys.routes.js';
import { createApiKeyService } from './modules/api-keys/api-keys.service.js';
import { createExtractorV1Repository } from './modules/extractor/extractor.v1.repository.js';
import { extractorV1Routes } from './modules/extractor/extractor.v1.routes.js';
import { createExtractorV1Service } from './modules/extractor/extractor.v1.service.js';
import { createDatasetV1Repository } from './modules/datasets/datasets.v1.repository.js';
import { datasetV1Routes } from './modules/datasets/datasets.v1.routes.js';
import { createDatasetV1Service } from './modules/datasets/datasets.v1.service.js';
import { queryV1Routes } from './modules/queries/queries.v1.routes.js';
import { createQueryV1Service } from './modules/queries/queries.v1.service.js';
import { createRunV1Repository } from './modules/runs/runs.v1.repository.js';
import { runV1Routes } from './modules/runs/runs.v1.routes.js';
import { runStartV1Routes } from './modules/runs/run-start.v1.routes.js';
import { createRunV1Service } from './modules/runs/runs.v1.service.js';
import { createBulkRunRepository } from './modules/bulk-runs/bulk-runs.repository.js';
import { bulkRunRoutes } from './modules/bulk-runs/bulk-runs.routes.js';
import { bulkRunV1Routes } from './modules/bulk-runs/bulk-runs.v1.routes.js';
import { createBulkRunService } from './modules/bulk-runs/bulk-runs.service.js';
import { createQueryRowSource } from './modules/queries/query-row-source.js';
import { createWebhookRepository } from './modules/webhooks/webhooks.repository.js';
import { webhookRoutes } from './modules/webhooks/webhooks.routes.js';
import { createWebhookService } from './modules/webhooks/webhooks.service.js';

/** Sessions one API process remembers the check of (a few hundred bytes each). */
const SESSION_CACHE_MAX_ENTRIES = 10_000;

declare module 'fastify' {
  interface FastifyInstance {
    config: ApiConfig;
  }
}

/** Builds the whole API (no listen): plugins, services, routes under /api, and the SPA. */
export async function buildApp(config: ApiConfig): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.LOG_LEVEL,
      // Tokens travel in URLs (WebSocket, links in e-mails): logged requests carry them redacted.
      serializers: { req: serializeRequest },
      redact: REDACTED_LOG_PATHS,
    },
    logController: new RequestLog(),
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && /^[\w-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    },
    // Forwarding headers count only from the configured proxies; an empty list trusts nobody's.
    trustProxy: config.TRUST_PROXY.length > 0 ? config.TRUST_PROXY : false,
    // Plugins connect to PostgreSQL and Redis: on a loaded host (or a database still starting)
    // that can pass Fastify's 10 s default, which ended the process at boot.
    pluginTimeout: 60_000,
    bodyLimit: 1024 * 1024,
    frameworkErrors: answerFrameworkError,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', config);
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    done(null, payload);
  });

  await app.register(errorsPlugin);
  await app.register(securityHeadersPlugin);
  await app.register(databasePlugin);
  await app.register(queuesPlugin);
  await app.register(rateLimit, {
    global: false,
    redis: app.redis,
    nameSpace: `${config.REDIS_KEY_PREFIX}rate:`,
    errorResponseBuilder: () => new AppError('RATE_LIMITED', MESSAGES['login.error.too.many.attempts']),
  });
  await app.register(swaggerPlugin);

  const mailer = createMailer(config);
  app.addHook('onClose', async () => mailer.close());
  const accessTokens = createAccessTokens(config);
  // Every write that changes a session check is announced to all API processes, whose caches of
  // those checks (a few seconds long) forget it at once.
  const announceSessionChange = (userId: string) => sessionChanges.announce(userId);
  const users = createUserRepository(app.db, announceSessionChange);
  const sessions = createSessionRepository(app.db, announceSessionChange);
  const sessionCallers = createSessionCallers({
    sessions: createSessionLookup(app.sql),
    ttlMs: config.SESSION_CACHE_SECONDS * 1000,
    maxEntries: SESSION_CACHE_MAX_ENTRIES,
  });
  const sessionChanges = createSessionChanges({
    callers: sessionCallers,
    subscriber: new Redis(config.REDIS_URL, { lazyConnect: true }),
    publisher: app.redis,
    keyPrefix: config.REDIS_KEY_PREFIX,
    databaseUrl: config.DATABASE_URL,
    log: app.log,
  });
  await sessionChanges.start();
  app.addHook('onClose', async () => sessionChanges.stop());
  await app.register(authPlugin, { accessTokens, callers: sessionCallers });
  const apiKeyRepository = createApiKeyRepository(app.db);
  await app.register(apiKeyAuthPlugin, {
    keys: apiKeyRepository,
    limiter: createApiKeyRateLimiter({
      redis: app.redis,
      keyPrefix: config.REDIS_KEY_PREFIX,
      perMinute: config.API_KEY_RATE_LIMIT_PER_MINUTE,
    }),
  });
  const loginFailures = createLoginFailureCeiling({
    redis: app.redis,
    keyPrefix: config.REDIS_KEY_PREFIX,
    max: config.LOGIN_ADDRESS_FAILURE_MAX,
    windowMs: config.LOGIN_ADDRESS_FAILURE_WINDOW_SECONDS * 1000,
  });
  const auth = createAuthService({ config, users, sessions, accessTokens, loginFailures });
  const engineSignIn = createEngineSignInService({
    verifier: createEngineTokenVerifier(config),
    links: createEngineAccountLinkRepository(app.db),
    users,
    startSession: auth.startSession,
  });
  const userService = createUserService({ config, users, mailer, log: app.log });
  const settings = createSettingsService(createSettingsRepository(app.db));
  // Commands to live browser sessions wait on BullMQ: a connection without a retry cap.
  const sessionConnection = new Redis(config.REDIS_URL, { maxRetriesPerRequest: null });
  const sessionCommands = createSessionCommandClient({
    connection: sessionConnection,
    keyPrefix: config.REDIS_KEY_PREFIX,
    log: app.log,
  });
  app.addHook('onClose', async () => {
    await sessionCommands.shutdown();
    sessionConnection.disconnect();
  });
  const builderStore = createBuilderStore(app.redis, config.REDIS_KEY_PREFIX);
  // Builder sessions of navigators mint their screen-share links through this service too, and
  // its viewers read their live page (read-only) from the builder's session.
  const screenShares = createScreenShareService({
    screenShares: createScreenShareRepository(app.db),
    mailer,
    config,
    log: app.log,
    livePages: createSharedLivePages({ store: builderStore, commands: sessionCommands }),
  });
  const builder = createBuilderService({
    repo: createBuilderRepository(app.db),
    store: builderStore,
    commands: sessionCommands,
    secrets: createSecretBox(config.ENCRYPTION_KEY),
    log: app.log,
    shareNavigator: (userId, extractorId, runId) => screenShares.share(userId, extractorId, runId),
    isReadOnlyEdit: async (userId) => (await settings.get(userId, 'readOnlyEdit')).value === 'true',
  });

  // Pub/sub needs a connection of its own: a subscribed Redis connection can do nothing else.
  const subscriber = new Redis(config.REDIS_URL, { lazyConnect: true });
  await subscriber.connect();
  app.addHook('onClose', async () => subscriber.disconnect());
  const liveEvents = createLiveEventsHub({
    subscriber,
    redis: app.redis,
    keyPrefix: config.REDIS_KEY_PREFIX,
    log: app.log,
    // Renewed on each socket heartbeat; two missed beats (a dead API process) and it lapses.
    leaseMs: config.LIVE_SOCKET_HEARTBEAT_SECONDS * 1000 * 3,
  });
  await liveEvents.start();
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });

  // pdf-to-text waits for its job: BullMQ's job events need a blocking connection of their own.
  const recognitionEventsConnection = new Redis(config.REDIS_URL, { maxRetriesPerRequest: null });
  const recognitionEvents = new QueueEvents(QUEUES.recognition, {
    connection: recognitionEventsConnection,
    prefix: queuePrefix(config.REDIS_KEY_PREFIX),
  });
  app.addHook('onClose', async () => {
    await recognitionEvents.close();
    recognitionEventsConnection.disconnect();
  });
  const files = createFileStorage(app.db);

  const runRepository = createRunRepository(app.db);
  // Fair shares (issue 24): each job's priority comes from its user's jobs in flight, so a
  // newcomer's first job goes before another user's tenth.
  const recognitionPriority = (userId: string, jobId: string) =>
    enqueueFairly(app.redis, config.REDIS_KEY_PREFIX, 'recognition', {
      userId,
      jobId,
      waitTtlMs: config.RECOGNITION_WAIT_SECONDS * 1000,
    });
  const runStarter = createRunStarter({
    db: app.db,
    sql: pgSql(app.sql),
    enqueue: async (runId, userId) => {
      const priority = await enqueueFairly(app.redis, config.REDIS_KEY_PREFIX, 'runs', {
        userId,
        jobId: runId,
        waitTtlMs: RUN_WAIT_TTL_MS,
      });
      await addJob(app.queues.runs, RUN_JOBS.runFlow, { runId, userId }, { priority });
    },
  });
  // Runs whose worker died end ERROR even while no worker runs: the API sweeps them.
  const stoppedRuns = createStoppedRunSweep({
    runs: runRepository,
    queue: app.queues.runs,
    redis: app.redis,
    keyPrefix: config.REDIS_KEY_PREFIX,
    sweepEveryMs: config.STOPPED_RUN_SWEEP_SECONDS * 1000,
    log: app.log,
  });
  app.addHook('onReady', async () => stoppedRuns.start());
  app.addHook('onClose', async () => stoppedRuns.stop());

  // Shared by the screens' calls (/api) and the public API (/api/v1).
  const runService = createRunService({
    runs: runRepository,
    starter: runStarter,
    queue: app.queues.runs,
    log: app.log,
  });
  const queries = createQueryRepository(app.db, app.sql);
  const queryDrafts = createQueryDraftStore(app.redis, config.REDIS_KEY_PREFIX, app.log);
  const queryResults = createQueryResultService({
    queries,
    drafts: queryDrafts,
    database: { url: config.DATABASE_URL, timeouts: databaseTimeoutsOf(config) },
    exportSlots: createExportSlots(config.QUERY_EXPORTS_MAX_RUNNING, config.QUERY_EXPORTS_MAX_PER_USER),
    exportLimits: {
      maxPerUser: config.QUERY_EXPORTS_MAX_PER_USER,
      stallMs: config.QUERY_EXPORT_STALL_SECONDS * 1000,
    },
    log: app.log,
  });

  const bulkRunService = createBulkRunService({
    bulkRuns: createBulkRunRepository(app.db),
    tables: createQueryRowSource(queryResults),
    queue: app.queues.bulkRuns,
    log: app.log,
  });

  await app.register(
    async (api) => {
      await api.register(healthRoutes);
      await api.register(authRoutes, { auth, engineSignIn });
      await api.register(userRoutes, { users: userService, auth });
      await api.register(settingsRoutes, { settings });
      await api.register(browserHostRoutes, {
        browserHosts: createBrowserHostsService(
          createBrowserHostsRepository(app.redis, config.REDIS_KEY_PREFIX),
        ),
      });
      await api.register(apiKeyRoutes, { apiKeys: createApiKeyService(apiKeyRepository) });
      await api.register(liveRoutes, { hub: liveEvents });
      await api.register(runRoutes, { runs: runService });
      await api.register(bulkRunRoutes, { bulkRuns: bulkRunService });
      await api.register(askRoutes, {
        asks: createAskService({
          asks: createAskRepository(app.db),
          redis: app.redis,
          keyPrefix: config.REDIS_KEY_PREFIX,
          secrets: createSecretBox(config.ENCRYPTION_KEY),
        }),
      });
      await api.register(screenShareRoutes, { screenShares });
      await api.register(extractorRoutes, {
        extractors: createExtractorService(
          createExtractorRepository(app.db, app.sql),
          createSecretBox(config.ENCRYPTION_KEY),
        ),
        openBuilder: (userId, extractorId) => builder.open(userId, extractorId),
      });
      await api.register(builderRoutes, { builder });
      await api.register(schedulerRoutes, {
        schedulers: createSchedulerService({
          schedulers: createSchedulerRepository(app.db),
          queue: app.queues.schedules,
          limits: {
            schedulers: config.SCHEDULERS_MAX_PER_USER,
            firingsPerHour: config.SCHEDULER_FIRINGS_MAX_PER_HOUR,
          },
          log: app.log,
        }),
      });
      await api.register(datasetRoutes, {
        datasets: createDatasetService({
          datasets: createDatasetRepository(app.db, app.sql, {
            timeoutMs: config.DATASET_SAVE_TIMEOUT_SECONDS * 1000,
            lockTimeoutMs: config.DATASET_SAVE_LOCK_TIMEOUT_SECONDS * 1000,
          }),
          drafts: createDatasetDraftStore(app.redis, config.REDIS_KEY_PREFIX, app.log),
        }),
      });
      await api.register(queryRoutes, {
        queries: createQueryService({ queries, drafts: queryDrafts }),
        results: queryResults,
      });
      await api.register(messageRoutes, {
        messages: createMessageService({
          messages: createMessageRepository(app.db, app.sql, files),
          mailQueue: app.queues.mail,
          publisher: app.redis,
          keyPrefix: config.REDIS_KEY_PREFIX,
          limits: {
            recipientsMax: config.MESSAGE_RECIPIENTS_MAX,
            accountSendsPerDay: config.MESSAGE_ACCOUNT_SENDS_PER_DAY,
            accountRecipientsPerDay: config.MESSAGE_ACCOUNT_RECIPIENTS_PER_DAY,
            linkSendsPerDay: config.MESSAGE_LINK_SENDS_PER_DAY,
            linkRecipientsPerDay: config.MESSAGE_LINK_RECIPIENTS_PER_DAY,
            linkAttachmentsMaxMb: config.MESSAGE_LINK_ATTACHMENTS_MAX_MB,
            attachmentsQuotaMb: config.MESSAGE_ATTACHMENTS_QUOTA_MB,
          },
          log: app.log,
        }),
        bodyLimitMb: config.MESSAGE_BODY_LIMIT_MB,
        sendsPerMinute: config.MESSAGE_SEND_RATE_LIMIT_MAX,
        largeSends: {
          largeBodyMb: config.MESSAGE_LARGE_BODY_MB,
          maxRunning: config.MESSAGE_LARGE_SENDS_MAX_RUNNING,
          maxPerUser: config.MESSAGE_LARGE_SENDS_MAX_PER_USER,
        },
      });
      await api.register(templateRoutes, {
        templates: createTemplateService({
          templates: createTemplateRepository(app.db, files),
          queue: app.queues.recognition,
          imageUrlSecret: config.JWT_SECRET,
          imageUrlTtlSeconds: config.TEMPLATE_IMAGE_URL_TTL_SECONDS,
          priorityOf: recognitionPriority,
        }),
      });
      await api.register(webhookRoutes, {
        webhooks: createWebhookService({
          webhooks: createWebhookRepository(app.db),
          secrets: createSecretBox(config.ENCRYPTION_KEY),
          queue: app.queues.webhooks,
          log: app.log,
        }),
      });
      await api.register(recognitionRoutes, {
        recognition: createRecognitionService({
          recognition: createRecognitionRepository(app.db, files),
          queue: app.queues.recognition,
          events: recognitionEvents,
          waitMs: config.RECOGNITION_WAIT_SECONDS * 1000,
          priorityOf: recognitionPriority,
          log: app.log,
        }),
      });
    },
    { prefix: '/api' },
  );
  // The public API (issue 26): every route behind app.requireApiKey, one file per feature module.
  await app.register(
    async (v1) => {
      await v1.register(extractorV1Routes, {
        extractors: createExtractorV1Service(createExtractorV1Repository(app.db)),
      });
      await v1.register(datasetV1Routes, {
        datasets: createDatasetV1Service(createDatasetV1Repository(app.db)),
      });
      await v1.register(queryV1Routes, { rows: createQueryV1Service(queryResults) });
      await v1.register(runStartV1Routes, { runs: runService });
      await v1.register(bulkRunV1Routes, { bulkRuns: bulkRunService });
      await v1.register(runV1Routes, {
        runs: runService,
        runsV1: createRunV1Service({
          runs: runRepository,
          statuses: createRunV1Repository(app.db),
          // Each wait holds a request and polls PostgreSQL 2.5 times a second.
          waits: { maxRunning: 200, maxPerUser: 20 },
          onRunEnded: (runId, listener) => liveEvents.onRunEnded(runId, listener),
        }),
      });
    },
    { prefix: '/api/v1' },
  );
  await app.register(spaPlugin);
  return app;
}
