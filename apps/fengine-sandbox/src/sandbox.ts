import Fastify, { type FastifyInstance } from 'fastify';
import {
  ADMIN_HEADER,
  DEFAULT_DATABASE_URL,
  DEFAULT_PASSWORD,
  DEFAULT_PORT,
  DEFAULT_USERNAME,
} from './constants.js';
import { FaultSwitches } from './faults.js';
import { adminRoutes } from './routes/admin.routes.js';
import { connectorRoutes } from './routes/connector.routes.js';
import { SandboxStore } from './store.js';

export * from './constants.js';
/** @internal The fault switches' shape, for the tests that throw them. */
export type { Faults } from './faults.js';

export interface SandboxOptions {
  databaseUrl?: string;
  /** Turns on /sandbox/faults and /sandbox/reset (header x-sandbox-admin). */
  adminToken?: string;
  sessionTtlSeconds?: number;
  username?: string;
  password?: string;
  logLevel?: string;
}

export interface StartSandboxOptions extends SandboxOptions {
  port?: number;
  host?: string;
}

export interface RunningSandbox {
  url: string;
  app: FastifyInstance;
  close(): Promise<void>;
}

/** Neither a password nor a token reaches a log line. */
const REDACTED_LOG_PATHS = [
  'req.headers.authorization',
  `req.headers["${ADMIN_HEADER}"]`,
  'req.body.password',
  'body.password',
  'password',
  'token',
];

/** Builds the reference F-engine (no listen): the connector contract, and the test controls. */
export async function buildSandbox(options: SandboxOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: options.logLevel ?? 'info',
      redact: { paths: REDACTED_LOG_PATHS, censor: '[redacted]' },
    },
    bodyLimit: 64 * 1024 * 1024,
  });
  const store = await SandboxStore.open(options.databaseUrl ?? DEFAULT_DATABASE_URL);
  app.addHook('onClose', () => store.close());
  const faults = new FaultSwitches();
  app.addHook('onRequest', faults.apply);

  // Every error answer is { error: sentence }, as the contract says; a 5xx tells nothing more.
  app.setErrorHandler((error: { statusCode?: number; message: string }, request, reply) => {
    const status =
      error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) request.log.error({ err: error }, 'sandbox error');
    return reply.code(status).send({ error: status === 500 ? 'Internal error' : error.message });
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send({ error: `No route ${request.method} ${request.url.split('?')[0]}` }),
  );

  app.get('/health', async () => ({ ok: true }));
  connectorRoutes(app, {
    store,
    username: options.username ?? DEFAULT_USERNAME,
    password: options.password ?? DEFAULT_PASSWORD,
    sessionTtlSeconds: options.sessionTtlSeconds ?? 900,
  });
  if (options.adminToken) adminRoutes(app, { adminToken: options.adminToken, faults, store });
  return app;
}

/** Builds and listens; `url` has no trailing slash. */
export async function startSandbox(options: StartSandboxOptions = {}): Promise<RunningSandbox> {
  const app = await buildSandbox(options);
  const host = options.host ?? '127.0.0.1';
  try {
    await app.listen({ host, port: options.port ?? DEFAULT_PORT });
  } catch (error) {
    await app.close();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return {
    url: `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`,
    app,
    close: () => app.close(),
  };
}
